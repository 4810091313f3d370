import type { RunResult } from "../../checker/model/result.js";
import type { ProgressStore } from "./progress-store.js";

/** Remembers that the learner opened an exercise (the first time only). */
export function recordStart(progress: ProgressStore, exerciseId: string): void {
  if (progress.exercise(exerciseId).startedAt) return;
  progress.update(exerciseId, (record, now) => {
    record.startedAt = now;
  });
}

/** Remembers a finished run; the first all-green run marks the exercise as passed. Returns true on that first pass. */
export function recordRun(progress: ProgressStore, exerciseId: string, result: RunResult): boolean {
  let firstPass = false;
  progress.update(exerciseId, (record, now) => {
    record.startedAt ??= now;
    record.lastRun = { at: now, passed: result.passed, total: result.total };
    // A run that skipped tests (a live run) proves only part of the exercise: it is no pass.
    const complete = result.tests.every((t) => t.state !== "skipped");
    if (result.status === "passed" && complete && !record.passedAt) {
      record.passedAt = now;
      firstPass = true;
    }
  });
  return firstPass;
}
