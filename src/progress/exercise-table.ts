import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Exercise } from "../../checker/model/exercises.js";
import { bestDrillSeconds } from "./drills.js";
import type { ProgressStore } from "./progress-store.js";
import { nextStepOf, statusOf, type ExerciseStatus } from "./status.js";

export interface ExerciseRow {
  exercise: Exercise;
  status: ExerciseStatus;
  /** Best passed drill time in seconds. */
  bestDrill: number | null;
  nextStep: string;
}

export interface ExerciseTable {
  rows: ExerciseRow[];
  /** False when the learner has never drilled: the column is left out. */
  hasDrills: boolean;
}

/** Every exercise with its status, best drill time and what to do next. */
export function exerciseTable(exercises: Exercise[], workspaceDir: string, progress: ProgressStore): ExerciseTable {
  const data = progress.read();
  const drills = bestDrillSeconds(workspaceDir);
  const rows = exercises.map((exercise) => {
    const status = statusOf(exercise, data, existsSync(resolve(workspaceDir, exercise.fileName)), exercises);
    return { exercise, status, bestDrill: drills?.get(exercise.number) ?? null, nextStep: nextStepOf(exercise, status) };
  });
  return { rows, hasDrills: drills !== null };
}
