import type { Exercise } from "../../checker/model/exercises.js";
import type { Progress } from "./progress-data.js";

/**
 * untouched: no file yet · started: a file, never green · passing: every test passed once ·
 * done: passed, and the learner moved on (compared with the solution or started a later exercise).
 */
export type ExerciseStatus = "untouched" | "started" | "passing" | "done";

export function statusOf(exercise: Exercise, progress: Progress, fileExists: boolean, all: Exercise[]): ExerciseStatus {
  const record = progress.exercises[exercise.id];
  if (record?.passedAt) {
    const movedOn = all.some((e) => e.number > exercise.number && progress.exercises[e.id]?.startedAt);
    return record.solutionSeenAt || movedOn ? "done" : "passing";
  }
  return fileExists || record?.startedAt ? "started" : "untouched";
}

export function nextStepOf(exercise: Exercise, status: ExerciseStatus): string {
  const n = exercise.number;
  if (status === "untouched") return `lab start ${n}`;
  if (status === "started") return `lab start ${n} (stuck? lab hint ${n})`;
  if (status === "passing") return `lab solution ${n} to compare`;
  return "";
}

/** The first exercise that has not passed yet, which is what the learner should do next. */
export function nextExercise<T extends { exercise: Exercise; status: ExerciseStatus }>(rows: T[]): T | undefined {
  return rows.find((row) => row.status === "untouched" || row.status === "started");
}
