import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { ABORT_REPEAT_MS, abortUntilSettled } from "../../../src/watch/stop-runs.js";
import { realTimers } from "../../../src/watch/timers.js";

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

test("kills the workers at once, and again until the run has ended, then stops", async () => {
  let aborts = 0;
  let end!: () => void;
  const settled = new Promise<void>((r) => (end = r));
  const stopping = abortUntilSettled({ abort: () => void aborts++ }, settled, realTimers);
  expect(aborts).toBe(1);
  await vi.advanceTimersByTimeAsync(ABORT_REPEAT_MS * 3);
  expect(aborts).toBe(4); // a worker forked after the first kill is killed too
  end();
  await stopping;
  await vi.advanceTimersByTimeAsync(ABORT_REPEAT_MS * 5);
  expect(aborts).toBe(4);
});
