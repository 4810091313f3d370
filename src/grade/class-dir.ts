/** A class folder: one folder per learner, each laid out like a workspace (`NN-slug.ts` files). */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Exercise } from "../../checker/run/exercises.js";
import { UserError } from "../terminal/errors.js";
import { GRADE_ERRORS } from "./messages.js";
import { GRADE_FAILED, type Shard } from "./options.js";

/** Where grading keeps its results inside the class folder; never taken for a learner. */
export const GRADE_DIR = ".lab-grade";

export interface Pair {
  /** "ada/01-tool-loop": stable across runs, shards and machines. */
  key: string;
  learner: string;
  learnerDir: string;
  exercise: Exercise;
  /** The learner's file, absolute. */
  file: string;
  /** The learner's file relative to the class folder, as rows and messages show it. */
  relFile: string;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The learner folders in `dir`, sorted; dot-folders (such as .lab-grade) are not learners. */
export function learnersIn(dir: string): string[] {
  let stat;
  try {
    stat = statSync(dir);
  } catch {
    throw new UserError(GRADE_ERRORS.noSuchDir(dir), GRADE_FAILED);
  }
  if (!stat.isDirectory()) throw new UserError(GRADE_ERRORS.notADir(dir), GRADE_FAILED);
  const learners = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .map((entry) => entry.name)
    .sort(byCodePoint);
  if (learners.length === 0) throw new UserError(GRADE_ERRORS.noLearners(dir), GRADE_FAILED);
  return learners;
}

/** Every learner × exercise, learner by learner, exercises in number order. */
export function pairsOf(dir: string, learners: string[], exercises: Exercise[]): Pair[] {
  return learners.flatMap((learner) =>
    exercises.map((exercise) => ({
      key: `${learner}/${exercise.id}`,
      learner,
      learnerDir: join(dir, learner),
      exercise,
      file: join(dir, learner, exercise.fileName),
      relFile: `${learner}/${exercise.fileName}`,
    })),
  );
}

/**
 * Shard i of n: a contiguous slice of the pairs in key order, sizes differing by at most one
 * (as vitest slices files), so n machines that list the same class split it the same way.
 */
export function shardOf<T extends { key: string }>(pairs: T[], shard: Shard | null): T[] {
  if (!shard) return pairs;
  const sorted = [...pairs].sort((a, b) => byCodePoint(a.key, b.key));
  const from = Math.floor(((shard.index - 1) * sorted.length) / shard.count);
  const to = Math.floor((shard.index * sorted.length) / shard.count);
  return sorted.slice(from, to);
}
