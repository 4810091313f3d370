/**
 * Gradescope's autograder results.json for one learner's submission: a test per hidden test
 * (partial credit) or per exercise (all or nothing), scored by `grading` in lab.config.ts; a
 * top-level score, execution time and output. Copy flags and peeks go in one hidden entry,
 * worth nothing, that only instructors see.
 */
import { bugOfTest } from "../../../checker/model/exercises.js";
import { copyText } from "../copies/flags.js";
import type { GradeRecord } from "../record.js";
import type { ClassReport } from "../report.js";
import { finished, pointsOf, pointsPerTest, roundPoints, weightOf } from "../scoring.js";
import { peeksText } from "./cells.js";

export type Visibility = "hidden" | "after_due_date" | "after_published" | "visible";

export interface GradescopeTest {
  name: string;
  number: string;
  score: number;
  max_score: number;
  status: "passed" | "failed";
  output: string;
  tags: string[];
  visibility: Visibility;
}

export interface GradescopeResults {
  score: number;
  execution_time: number;
  output: string;
  output_format: "text";
  visibility: Visibility;
  stdout_visibility: Visibility;
  tests: GradescopeTest[];
  extra_data: { lab_version: string; learner: string | null };
}

/** Test entries show four decimals at most; the total, two. */
const points4 = (points: number) => Math.round(points * 10_000) / 10_000;

export const GRADESCOPE_TEXT = {
  summary: (passed: number, exercises: number, score: number, max: number, version: string) =>
    `${passed} of ${exercises} exercises pass every hidden test: ${score} of ${max} points (harness-lab ${version}).`,
  failing: (assertion: string, sentence: string | null) => (sentence === null ? assertion : `${assertion}\nThe bug this test catches: ${sentence}`),
  couldNotRun: (reason: string) => `The tests could not run, so this exercise earns no points: ${reason}`,
  allOrNothing: (total: number) => `every hidden test (${total}) must pass for the points`,
  notesName: "Notes for the instructor (never shown to the learner, never scored)",
  copy: (exercise: string, text: string) => `${exercise}: the file matches ${text}.`,
  peeks: (exercise: string, text: string) => `${exercise}: opened ${text}.`,
} as const;

function testsOf(record: GradeRecord, report: ClassReport): GradescopeTest[] {
  const bugs = report.exerciseNotes.find((e) => e.exercise === record.exercise)?.bugs ?? {};
  const weight = weightOf(report.grading, record.number);
  const entry = (name: string, index: number, score: number, max: number, passed: boolean, output: string, tags: string[]): GradescopeTest => ({
    name,
    number: `${record.number}.${index}`,
    score: points4(score),
    max_score: points4(max),
    status: passed ? "passed" : "failed",
    output,
    tags: [record.exercise, ...tags],
    visibility: "visible",
  });
  if (!finished(record)) return [entry(record.exercise, 1, 0, weight, false, GRADESCOPE_TEXT.couldNotRun(record.reason ?? record.state), [record.state])];
  const explain = (t: GradeRecord["tests"][number]) => {
    const bug = bugOfTest(t.name);
    return GRADESCOPE_TEXT.failing(t.message ?? t.status, bug === null ? null : (bugs[bug] ?? null));
  };
  if (!report.grading.partialCredit) {
    const failing = record.tests.filter((t) => t.status !== "pass");
    const output = failing.map((t) => `${t.name}: ${explain(t)}`).join("\n\n");
    return [
      entry(
        `${record.exercise}: ${GRADESCOPE_TEXT.allOrNothing(record.tests.length)}`,
        1,
        pointsOf(record, report.grading),
        weight,
        failing.length === 0,
        output,
        [],
      ),
    ];
  }
  const each = pointsPerTest(record, report.grading);
  return record.tests.map((t, i) => {
    const bug = bugOfTest(t.name);
    return entry(
      `${record.exercise}: ${t.name}`,
      i + 1,
      t.status === "pass" ? each : 0,
      each,
      t.status === "pass",
      t.status === "pass" ? "" : explain(t),
      bug ? [bug] : [],
    );
  });
}

function notesFor(report: ClassReport): GradescopeTest[] {
  const lines = [
    ...report.copies.map((c) => GRADESCOPE_TEXT.copy(c.exercise, copyText(c.matches))),
    ...report.peeks.map((p) => GRADESCOPE_TEXT.peeks(p.exercise, peeksText(p.peeks))),
  ];
  if (lines.length === 0) return [];
  return [
    {
      name: GRADESCOPE_TEXT.notesName,
      number: "0.1",
      score: 0,
      max_score: 0,
      status: "passed",
      output: lines.join("\n"),
      tags: ["notes"],
      visibility: "hidden",
    },
  ];
}

export function renderGradescope(report: ClassReport): string {
  const points = roundPoints(report.records.reduce((sum, r) => sum + pointsOf(r, report.grading), 0));
  const max = roundPoints(report.records.reduce((sum, r) => sum + weightOf(report.grading, r.number), 0));
  const passed = report.records.filter((r) => r.state === "pass").length;
  const results: GradescopeResults = {
    score: points,
    execution_time: Math.round(report.records.reduce((sum, r) => sum + (r.ms ?? 0), 0) / 1000),
    output: GRADESCOPE_TEXT.summary(passed, report.records.length, points, max, report.labVersion),
    output_format: "text",
    visibility: "visible",
    stdout_visibility: "hidden",
    tests: [...report.records.flatMap((r) => testsOf(r, report)), ...notesFor(report)],
    extra_data: { lab_version: report.labVersion, learner: report.learners[0]?.learner ?? null },
  };
  return `${JSON.stringify(results, null, 2)}\n`;
}
