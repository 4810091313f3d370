import { RECORD_FORMAT, type GradeRecord } from "../../../src/grade/record.js";
import { buildReport, type ReportLab } from "../../../src/grade/report.js";

/** A record as grading would write it, with whatever the test cares about overridden. */
export function record(learner: string, exercise: string, overrides: Partial<GradeRecord> = {}): GradeRecord {
  const number = Number(exercise.slice(0, 2));
  return {
    format: RECORD_FORMAT,
    key: `${learner}/${exercise}`,
    learner,
    exercise,
    number,
    title: `Exercise ${number}`,
    file: `${learner}/${exercise}.ts`,
    fileHash: "f".repeat(64),
    testHash: "t".repeat(64),
    limits: "timeout 10 s, memory 512 MB",
    bestDrillSeconds: null,
    drill: null,
    peeks: null,
    fingerprint: null,
    at: "2026-03-01T10:00:00.000Z",
    state: "pass",
    passed: 2,
    total: 2,
    firstFailure: null,
    reason: null,
    ms: 100,
    tests: [
      { name: "first", status: "pass", message: null },
      { name: "second", status: "pass", message: null },
    ],
    ...overrides,
  };
}

export const failing = (learner: string, exercise: string, failed: string[], overrides: Partial<GradeRecord> = {}) =>
  record(learner, exercise, {
    state: "fail",
    passed: 2 - failed.length,
    firstFailure: { test: failed[0]!, message: `${failed[0]} went wrong` },
    tests: ["first", "second"].map((name) =>
      failed.includes(name) ? { name, status: "fail" as const, message: `${name} went wrong` } : { name, status: "pass" as const, message: null },
    ),
    ...overrides,
  });

/** A report of records graded without exercise data (no bug sentences, no references), made at a fixed time. */
export const reportOf = (records: GradeRecord[], lab: Partial<ReportLab> = {}) =>
  buildReport(records, { exercises: [], grading: { weights: {}, partialCredit: true }, version: "9.9.9", date: "2026-03-01T10:00:00.000Z", ...lab });
