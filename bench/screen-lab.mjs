// The lab modules bench/screen.mjs drives, loaded from a checkout's dist/: this one's or an
// older one's (--lab DIR). Each API is checked for before use, so a build that lacks one
// fails with a sentence naming it instead of a TypeError halfway through a run.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BenchUsageError } from "./side-by-side.mjs";

export const LAB_MESSAGES = {
  missing: (root, what, where) => `${root}'s build has no ${what} in dist/${where}, which this bench needs.`,
  noMutant: (root, id) => `${root}: exercise ${id} has no single-bug mutant (mutants/<bug>.ts or .diff) to alternate with its solution.`,
  mutantUnwritten: (file) => `The mutant ${file} is not on disk: run npm run build in its checkout.`,
};

/** @type {[string, string, (value: any) => boolean][]} [module under dist/, export, what must hold of it] for everything the bench calls. */
const NEEDED = [
  ["checker/paths.js", "labPaths", (v) => typeof v === "function"],
  ["checker/model/exercises.js", "loadExercises", (v) => typeof v === "function"],
  ["checker/run/runner.js", "Runner", (v) => typeof v?.create === "function"],
  ["src/watch/watch-session.js", "WatchSession", (v) => typeof v?.start === "function"],
  ["src/watch/run-scheduler.js", "SAVE_DEBOUNCE_MS", (v) => typeof v === "number"],
  ["src/progress/progress-store.js", "ProgressStore", (v) => typeof v === "function"],
  ["src/screen/import-screen.js", "importScreen", (v) => typeof v === "function"],
  ["src/screen/screen-state.js", "initialScreenState", (v) => typeof v === "function"],
  ["src/screen/screen-store.js", "createScreenStore", (v) => typeof v === "function"],
  ["src/typecheck/type-checker.js", "TypeChecker", (v) => typeof v === "function"],
];
const SCREEN = ["src/screen/run-screen.js", "runScreen"];

/** The checkout's lab, as `lab start` loads it: the screen's module (React's production build) before the runner starts. */
export async function loadLab(root) {
  const load = async (where, name, holds = (v) => typeof v === "function") => {
    const file = join(root, "dist", where);
    const module = existsSync(file) ? await import(pathToFileURL(file).href) : {};
    if (!holds(module[name])) throw new BenchUsageError(LAB_MESSAGES.missing(root, name, where));
    return module[name];
  };
  const lab = { root };
  for (const [where, name, holds] of NEEDED) lab[name] = await load(where, name, holds);
  lab.runScreen = await lab.importScreen(() => load(...SCREEN));
  lab.paths = lab.labPaths();
  lab.exercises = lab.loadExercises(lab.paths.exercises, lab.paths.solutions);
  return lab;
}

/**
 * The mutant a save alternates with the solution: the exercise's first single-bug one, in the
 * order the lab lists them (a group's, "blind/…", is a variant and comes later). Builds before
 * diff mutants list only { bug, file }, with the bug as the name.
 */
export function firstMutant(lab, exercise) {
  const mutant = exercise.mutants.map((m) => ({ name: m.name ?? m.bug, file: m.file })).find((m) => !m.name.includes("/"));
  if (!mutant) throw new BenchUsageError(LAB_MESSAGES.noMutant(lab.root, exercise.id));
  if (!existsSync(mutant.file)) throw new BenchUsageError(LAB_MESSAGES.mutantUnwritten(mutant.file));
  return mutant;
}
