import { existsSync, readFileSync } from "node:fs";
import { UserError } from "../terminal/errors.js";
import { writeLine, type Io } from "../terminal/io.js";
import { ProgressStore } from "../progress/progress-store.js";
import { exerciseOrFail, loadContext, type LabContext } from "./context.js";

export const SOLUTION_MESSAGES = {
  locked: (n: number) =>
    `Exercise ${n} has not passed yet: its solution opens after your first all-green run, or now with lab solution ${n} --force (which is recorded).`,
  missing: (file: string) => `The solution file ${file} is missing from this copy of the lab.`,
  header: (n: number, file: string) => `Solution for exercise ${n} (${file}):`,
  forced: "Shown with --force before a pass; your progress records that.",
} as const;

/** `lab solution N`: the reference solution, after the exercise has passed once, or with --force (recorded). */
export async function solutionCommand(key: string, opts: { force?: boolean }, io: Io, paths?: LabContext["paths"]): Promise<number> {
  const ctx = await loadContext(io, paths, { workspace: true });
  const exercise = exerciseOrFail(ctx, key);
  const progress = new ProgressStore(ctx.config.workspaceDir, (sentence) => writeLine(io.stderr, sentence));
  const passed = Boolean(progress.exercise(exercise.id).passedAt);
  if (!passed && !opts.force) throw new UserError(SOLUTION_MESSAGES.locked(exercise.number));
  if (!existsSync(exercise.solution)) throw new UserError(SOLUTION_MESSAGES.missing(exercise.solution));
  const text = readFileSync(exercise.solution, "utf8");
  progress.update(exercise.id, (record, now) => {
    record.solutionSeenAt ??= now;
    if (!passed) record.solutionForcedAt ??= now;
  });
  writeLine(io.stdout, SOLUTION_MESSAGES.header(exercise.number, exercise.solution));
  writeLine(io.stdout);
  io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  if (!passed) writeLine(io.stdout, SOLUTION_MESSAGES.forced);
  return 0;
}
