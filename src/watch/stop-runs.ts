import { realTimers, type Timers } from "./timers.js";

/** How often the workers are killed again while a stopped run winds down. */
export const ABORT_REPEAT_MS = 250;

/**
 * Kills the runner's workers now and again until `settled` (the run in flight) resolves.
 * Once is not enough: a run stopped before it took its worker forks a fresh one, which
 * would run the learner's code up to the time limit.
 */
export async function abortUntilSettled(runner: { abort?(): void }, settled: Promise<unknown>, timers: Timers = realTimers): Promise<void> {
  runner.abort?.();
  const handle = timers.setInterval(() => runner.abort?.(), ABORT_REPEAT_MS);
  try {
    await settled;
  } finally {
    timers.clearInterval(handle);
  }
}
