import type { Exercise } from "../../checker/model/exercises.js";
import type { RunListener, RunResult } from "../../checker/model/result.js";
import { Runner } from "../../checker/run/runner.js";
import { abortUntilSettled } from "./stop-runs.js";

/** What a shell reports for a command stopped by Ctrl-C. */
export const INTERRUPTED_EXIT_CODE = 130;

export interface RunOnceRequest {
  exercise: Exercise;
  implFile: string;
  timeoutSeconds: number;
  listener?: RunListener;
  /** The workers' whole environment (a live run adds its gate's URL); inherited by default. */
  env?: Record<string, string>;
}

/**
 * One run of an exercise's hidden tests with a runner of its own, for commands without a
 * screen. Ctrl-C or SIGTERM stops it at once, so learner code never outlives the command
 * in a detached worker; the result is then null.
 */
export async function runOnce({ exercise, implFile, timeoutSeconds, listener, env }: RunOnceRequest): Promise<RunResult | null> {
  const runner = await Runner.create({ timeoutSeconds, ...(env ? { env } : {}) });
  const run = runner.run({ exercise, implFile }, listener);
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    void abortUntilSettled(
      runner,
      run.catch(() => undefined),
    );
  };
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  try {
    const result = await run.catch((err: unknown) => {
      if (interrupted) return null;
      throw err;
    });
    return interrupted ? null : result;
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
    await runner.close();
  }
}
