/**
 * results.json per learner in the shape of exercism's test-runner interface (version 3):
 * a top-level status and message, and one entry per test with name, status and message;
 * `task_id` is the exercise number. An exercise whose tests could not run is one entry
 * with status "error" and the reason.
 */
import { join } from "node:path";
import type { GradeRecord } from "./record.js";
import { writeAtomically } from "../progress/write-atomically.js";

export interface ExercismTest {
  name: string;
  status: "pass" | "fail" | "error";
  message: string | null;
  task_id: number;
}

export interface ExercismResults {
  version: 3;
  status: "pass" | "fail" | "error";
  message: string | null;
  tests: ExercismTest[];
}

const couldNotRun = (r: GradeRecord) => r.state === "error" || r.state === "timeout" || r.state === "missing";

/** The learner's records (one per exercise) as one results.json. */
export function exercismResults(records: GradeRecord[]): ExercismResults {
  const sorted = [...records].sort((a, b) => a.number - b.number);
  const tests: ExercismTest[] = sorted.flatMap((r) =>
    r.tests.length > 0 && r.state !== "error" && r.state !== "timeout"
      ? r.tests.map((t) => ({ name: `${r.exercise}: ${t.name}`, status: t.status, message: t.message, task_id: r.number }))
      : [{ name: r.exercise, status: "error" as const, message: r.reason, task_id: r.number }],
  );
  const broken = sorted.filter(couldNotRun);
  const status = sorted.every((r) => r.state === "pass") ? "pass" : broken.length === sorted.length ? "error" : "fail";
  const message = broken.length === 0 ? null : broken.map((r) => `${r.exercise}: ${r.reason ?? r.state}`).join("\n");
  return { version: 3, status, message, tests };
}

export const learnerResultsFile = (gradeDir: string, learner: string) => join(gradeDir, "learners", learner, "results.json");

/** Writes results.json for every learner in `records`. */
export function writeLearnerResults(gradeDir: string, records: GradeRecord[]): void {
  const byLearner = new Map<string, GradeRecord[]>();
  for (const record of records) byLearner.set(record.learner, [...(byLearner.get(record.learner) ?? []), record]);
  for (const [learner, mine] of byLearner) {
    writeAtomically(learnerResultsFile(gradeDir, learner), `${JSON.stringify(exercismResults(mine), null, 2)}\n`);
  }
}
