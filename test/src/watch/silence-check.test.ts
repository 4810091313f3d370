import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { contentHash, SILENCE_CHECK_MS, SilenceCheck } from "../../../src/watch/silence-check.js";
import { realTimers } from "../../../src/watch/timers.js";
import { tempDir } from "../../support/temp-dir.js";

let disk: string | null;
const fingerprint = () => disk;

beforeEach(() => {
  vi.useFakeTimers();
  disk = "export const v = 1;";
});
afterEach(() => void vi.useRealTimers());

test("a change the watcher never reports is called silent after one more interval", async () => {
  const silent = vi.fn();
  const check = new SilenceCheck("f.ts", silent, realTimers, fingerprint).start();
  disk = "export const v = 2;";
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
  const check = new SilenceCheck("f.ts", silent, realTimers, fingerprint).start();
  disk = "export const v = 2;";
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS);
  check.heard();
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS * 3);
  expect(silent).not.toHaveBeenCalled();
  check.close();
});

test("touch, or the same text written again, changes no content: no event is owed, so no silence on a real file", async () => {
  const file = join(tempDir("silence"), "f.ts");
  writeFileSync(file, "export const v = 1;\n");
  const silent = vi.fn();
  const check = new SilenceCheck(file, silent, realTimers).start();
  utimesSync(file, new Date(), new Date(Date.now() + 60_000));
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS * 3);
  writeFileSync(file, "export const v = 1;\n");
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS * 3);
  expect(silent).not.toHaveBeenCalled();
  writeFileSync(file, "export const v = 2;\n"); // new content nobody reported
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS * 2);
  expect(silent).toHaveBeenCalledTimes(1);
  check.close();
});

test("after a silence, the next watcher event says it is heard again, once; the session's own reads do not", async () => {
  const silent = vi.fn();
  const heard = vi.fn();
  const check = new SilenceCheck("f.ts", silent, realTimers, fingerprint, heard).start();
  check.heard();
  expect(heard).not.toHaveBeenCalled(); // nothing was silent
  disk = "export const v = 2;";
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS * 2);
  expect(silent).toHaveBeenCalledTimes(1);
  check.read(); // the missed save's run reads the file
  expect(heard).not.toHaveBeenCalled();
  check.heard();
  check.heard();
  expect(heard).toHaveBeenCalledTimes(1);
  check.close();
});

test("the content hash: equal for equal bytes, different for different bytes, null for no file", () => {
  const dir = tempDir("silence");
  writeFileSync(join(dir, "a.ts"), "x");
  writeFileSync(join(dir, "b.ts"), "x");
  writeFileSync(join(dir, "c.ts"), "y");
  expect(contentHash(join(dir, "a.ts"))).toBe(contentHash(join(dir, "b.ts")));
  expect(contentHash(join(dir, "a.ts"))).not.toBe(contentHash(join(dir, "c.ts")));
  expect(contentHash(join(dir, "missing.ts"))).toBeNull();
});

test("close stops the checks", async () => {
  const silent = vi.fn();
  const check = new SilenceCheck("f.ts", silent, realTimers, fingerprint).start();
  check.close();
  disk = null;
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS * 5);
  expect(silent).not.toHaveBeenCalled();
});
