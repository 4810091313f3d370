import { runDemo } from "../run/run-demo.js";
import type { Io } from "../terminal/io.js";
import { exerciseOrFail, implFileOrFail, loadContext, type LabContext } from "./context.js";

export interface RunOptions {
  file?: string;
}

/** The time limit of one `lab run`: a demo makes a few model calls, some with real waits (exercise 2's retries). */
export const RUN_LIMIT_SECONDS = 60;

/** `lab run N [goal]`: your file on the exercise's demo task; exit 0 when it returned, 1 when it threw or did not finish. */
export async function runCommand(key: string, goal: string | undefined, opts: RunOptions, io: Io, paths?: LabContext["paths"]): Promise<number> {
  const ctx = await loadContext(io, paths, { workspace: true });
  const exercise = exerciseOrFail(ctx, key);
  const implFile = implFileOrFail(ctx, io, exercise, opts.file);
  const timeoutSeconds = Math.max(RUN_LIMIT_SECONDS, ctx.config.config.timeoutSeconds);
  return runDemo({ io, exercise, implFile, goal: goal?.trim() || undefined, workspaceDir: ctx.config.workspaceDir, timeoutSeconds });
}
