/**
 * An opt-in guard for worker processes that run untrusted code (grading), on a thread of
 * its own so it keeps watching while learner code blocks the main thread:
 *  - memory: `--max-old-space-size` bounds the JavaScript heap only, and a Buffer lives
 *    outside it; past the limit of resident memory the guard writes one line to stderr
 *    saying why and kills the process;
 *  - the parent: a worker whose runner died (SIGKILL, a crash) kills itself, so a
 *    `while (true) {}` cannot outlive the grading that started it.
 */
import { Worker } from "node:worker_threads";

/** The environment variable that turns the guard on: the memory limit in MB. */
export const MEMORY_LIMIT_ENV = "LAB_MEMORY_LIMIT_MB";

/** The start of the line a worker writes to stderr just before the guard kills it. */
export const MEMORY_GUARD_MARK = "lab: memory limit exceeded";

const CHECK_EVERY_MS = 25;

// Runs on the guard thread (CommonJS, as eval'd workers are).
const GUARD = `
const { workerData } = require("node:worker_threads");
const { writeSync } = require("node:fs");
const { limitMb, parent, mark, every } = workerData;
const limit = limitMb * 1024 * 1024;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, "SIGKILL");
  const used = process.memoryUsage.rss();
  if (used <= limit) return;
  try {
    writeSync(2, mark + ": the process used " + Math.round(used / 1024 / 1024) + " MB, the limit is " + limitMb + " MB\\n");
  } finally {
    process.kill(process.pid, "SIGKILL");
  }
}, every);
`;

/** Starts the guard when `limitMb` is a positive number; otherwise does nothing. */
export function guardWorker(limitMb: string | undefined): void {
  const limit = Number(limitMb);
  if (!limitMb || !Number.isFinite(limit) || limit <= 0) return;
  const thread = new Worker(GUARD, { eval: true, workerData: { limitMb: limit, parent: process.ppid, mark: MEMORY_GUARD_MARK, every: CHECK_EVERY_MS } });
  thread.unref();
}
