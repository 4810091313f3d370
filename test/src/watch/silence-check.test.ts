import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { SILENCE_CHECK_MS, SilenceCheck, type FileStamp } from "../../../src/watch/silence-check.js";
import { realTimers } from "../../../src/watch/timers.js";

let disk: FileStamp | null;
const stat = () => disk;

beforeEach(() => {
  vi.useFakeTimers();
  disk = { mtimeMs: 1, size: 10 };
});
afterEach(() => void vi.useRealTimers());

test("a change the watcher never reports is called silent after one more interval", async () => {
  const silent = vi.fn();
  const check = new SilenceCheck("f.ts", silent, realTimers, stat).start();
  disk = { mtimeMs: 2, size: 11 };
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS);
  expect(silent).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS);
  expect(silent).toHaveBeenCalledTimes(1);
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS * 3);
  expect(silent).toHaveBeenCalledTimes(1); // once per missed save
  check.close();
});

test("a change the watcher reports in time is not silence", async () => {
  const silent = vi.fn();
  const check = new SilenceCheck("f.ts", silent, realTimers, stat).start();
  disk = { mtimeMs: 2, size: 11 };
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS);
  check.noticed();
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS * 3);
  expect(silent).not.toHaveBeenCalled();
  check.close();
});

test("close stops the checks", async () => {
  const silent = vi.fn();
  const check = new SilenceCheck("f.ts", silent, realTimers, stat).start();
  check.close();
  disk = null;
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS * 5);
  expect(silent).not.toHaveBeenCalled();
});
