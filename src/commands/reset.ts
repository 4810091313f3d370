import { existsSync } from "node:fs";
import { createInterface } from "node:readline/promises";
import { UsageError, UserError } from "../terminal/errors.js";
import { isInteractive, writeLine, type Io } from "../terminal/io.js";
import { ProgressStore } from "../progress/progress-store.js";
import { resetToStub, WorkspaceWriteError } from "../progress/workspace-files.js";
import { exerciseOrFail, loadContext, workspaceFile, type LabContext } from "./context.js";

export const RESET_MESSAGES = {
  nothing: (file: string, n: number) => `There is nothing to reset: ${file} does not exist yet (lab start ${n} creates it).`,
  question: (file: string) => `Replace ${file} with the stub? Your version is backed up first. [y/N] `,
  needsYes: "lab reset needs --yes when there is no terminal to ask for confirmation.",
  kept: "Nothing changed.",
  done: (file: string, backup: string) => `${file} is the stub again; your version is in ${backup}.`,
} as const;

async function confirm(io: Io, question: string): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stdout, terminal: false });
  try {
    const answer = await rl.question(question);
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}

/** `lab reset N`: puts the stub back after a confirmation, keeping a timestamped backup of the learner's file. */
export async function resetCommand(key: string, opts: { yes?: boolean }, io: Io, paths?: LabContext["paths"], now = () => new Date()): Promise<number> {
  const ctx = await loadContext(io, paths, { workspace: true });
  const exercise = exerciseOrFail(ctx, key);
  const file = workspaceFile(ctx, exercise);
  if (!existsSync(file)) {
    writeLine(io.stdout, RESET_MESSAGES.nothing(file, exercise.number));
    return 0;
  }
  if (!opts.yes) {
    if (!isInteractive(io)) throw new UsageError(RESET_MESSAGES.needsYes);
    if (!(await confirm(io, RESET_MESSAGES.question(file)))) {
      writeLine(io.stdout, RESET_MESSAGES.kept);
      return 0;
    }
  }
  let backup: string | null;
  try {
    backup = resetToStub(exercise, file, ctx.config.workspaceDir, now());
  } catch (err) {
    if (err instanceof WorkspaceWriteError) throw new UserError(err.message);
    throw err;
  }
  const progress = new ProgressStore(ctx.config.workspaceDir, (sentence) => writeLine(io.stderr, sentence), now);
  progress.update(exercise.id, (record, at) => void (record.resetAt = at));
  writeLine(io.stdout, RESET_MESSAGES.done(file, backup!));
  return 0;
}
