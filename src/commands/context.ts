import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { labPaths } from "../../checker/paths.js";
import { findExercise, surveyExercises, type Exercise } from "../../checker/model/exercises.js";
import { loadConfig, type LoadedConfig } from "../config/load-config.js";
import { UsageError } from "../terminal/errors.js";
import { writeLine, type Io } from "../terminal/io.js";

export const CONTEXT_MESSAGES = {
  noSuchExercise: (key: string, count: number) =>
    count === 0 ? `There are no exercises yet, so there is no exercise ${key}.` : `There is no exercise ${key}; run lab list to see all ${count}.`,
  noWorkspaceFile: (file: string, n: number) => `There is no file at ${file} yet: run lab start ${n} first to create it.`,
  noFile: (file: string) => `There is no file at ${file}.`,
  skipped: (problem: string) => `Skipping an exercise that does not load: ${problem}`,
  noConfig: (cwd: string, root: string) =>
    `No lab.config.ts in ${cwd} or any folder above it, so there is no workspace to use. Run lab inside the lab's folder (${root}), or create lab.config.ts here with export default { workspace: "./workspace" }.`,
} as const;

/** Everything a command needs to know about where things are; tests pass fixture folders. */
export interface LabContext {
  config: LoadedConfig;
  exercises: Exercise[];
  paths: { root: string; exercises: string; solutions: string };
}

/** Config and exercises; an exercise folder that does not load is named on stderr and left out, so the rest still work. */
export async function loadContext(io: Io, paths: LabContext["paths"] = labPaths(), opts: { workspace?: boolean } = {}): Promise<LabContext> {
  const config = await loadConfig(io.cwd);
  // Without a config, a command that uses the workspace would make ./workspace wherever it was
  // run: it says where it looked instead.
  if (opts.workspace && config.file === null) throw new UsageError(CONTEXT_MESSAGES.noConfig(resolve(io.cwd), paths.root));
  // No command of the lab runs a mutant: their files are the self-check's to bring up to date.
  const { exercises, problems } = surveyExercises(paths.exercises, paths.solutions, "leave");
  for (const problem of problems) writeLine(io.stderr, CONTEXT_MESSAGES.skipped(problem.message));
  return { config, exercises, paths };
}

export function exerciseOrFail(ctx: LabContext, key: string): Exercise {
  const exercise = findExercise(ctx.exercises, key);
  if (!exercise) throw new UsageError(CONTEXT_MESSAGES.noSuchExercise(key, ctx.exercises.length));
  return exercise;
}

export const workspaceFile = (ctx: LabContext, exercise: Exercise) => resolve(ctx.config.workspaceDir, exercise.fileName);

/** The file to test: --file when given, else the learner's workspace file, which must exist. */
export function implFileOrFail(ctx: LabContext, io: Io, exercise: Exercise, file?: string): string {
  if (file) {
    const path = resolve(io.cwd, file);
    if (!existsSync(path)) throw new UsageError(CONTEXT_MESSAGES.noFile(path));
    return path;
  }
  const path = workspaceFile(ctx, exercise);
  if (!existsSync(path)) throw new UsageError(CONTEXT_MESSAGES.noWorkspaceFile(path, exercise.number));
  return path;
}
