/**
 * A class folder: one folder per learner, each laid out like a workspace (`NN-slug.ts` files),
 * or holding the learner's whole lab folder, whose workspace/ is then theirs.
 */
import { lstatSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Exercise } from "../../checker/model/exercises.js";
import { UserError } from "../terminal/errors.js";
import { GRADE_ERRORS } from "./messages.js";
import { GRADE_FAILED, type Shard } from "./options.js";

/** Where grading keeps its results inside the class folder; never taken for a learner. */
export const GRADE_DIR = ".lab-grade";

export interface Pair {
  /** "ada/01-tool-loop": stable across runs, shards and machines. */
  key: string;
  learner: string;
  /** The learner's workspace: their folder, or the workspace/ inside it (their files, siblings and .lab/ drills). */
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

/** A learner who handed in their whole lab folder has their files in this folder inside it. */
export const HANDED_IN_WORKSPACE = "workspace";

const present = (path: string, kind: "any" | "dir") => {
  try {
    const stat = lstatSync(path);
    return kind === "any" || stat.isDirectory();
  } catch {
    return false;
  }
};

/**
 * Where a learner's files are: their folder, unless it holds none of the exercises' files and
 * has a workspace/ folder (not a link: a link could take a classmate's), as a lab folder does.
 */
function workspaceOf(learnerDir: string, exercises: Exercise[]): string {
  if (exercises.some((exercise) => present(join(learnerDir, exercise.fileName), "any"))) return learnerDir;
  const nested = join(learnerDir, HANDED_IN_WORKSPACE);
  return present(nested, "dir") ? nested : learnerDir;
}

/** Every learner × exercise, learner by learner, exercises in number order. */
export function pairsOf(dir: string, learners: string[], exercises: Exercise[]): Pair[] {
  return learners.flatMap((learner) => {
    const learnerDir = workspaceOf(join(dir, learner), exercises);
    const shown = learnerDir === join(dir, learner) ? learner : `${learner}/${HANDED_IN_WORKSPACE}`;
    return exercises.map((exercise) => ({
      key: `${learner}/${exercise.id}`,
      learner,
      learnerDir,
      exercise,
      file: join(learnerDir, exercise.fileName),
      relFile: `${shown}/${exercise.fileName}`,
    }));
  });
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
