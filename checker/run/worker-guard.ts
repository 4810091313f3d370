/**
 * A guard for every worker process, on a thread of its own so it keeps watching while
 * learner code blocks the main thread:
 *  - the parent: a worker whose runner died (SIGKILL, a crash) kills itself, so a
 *    `while (true) {}` cannot outlive the lab or the grading that started it (a worker
 *    lives in its own process group, so nothing else would stop it);
 *  - memory, when a limit is set (grading sets one): `--max-old-space-size` bounds the
 *    JavaScript heap only, and a Buffer lives outside it; past the limit of resident memory
 *    the guard writes one line to stderr saying why and kills the process.
 */
import { Worker } from "node:worker_threads";

/** The environment variable that sets a memory limit in MB. */
export const MEMORY_LIMIT_ENV = "LAB_MEMORY_LIMIT_MB";

/** The start of the line a worker writes to stderr just before the guard kills it. */
export const MEMORY_GUARD_MARK = "lab: memory limit exceeded";

const CHECK_EVERY_MS = 25;

// Runs on the guard thread (CommonJS, as eval'd workers are).
const GUARD = `
const { workerData } = require("node:worker_threads");
const { writeSync } = require("node:fs");
const { limitMb, parent, mark, every } = workerData;
const limit = limitMb > 0 ? limitMb * 1024 * 1024 : Infinity;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, "SIGKILL");
  if (limit === Infinity) return;
  const used = process.memoryUsage.rss();
  if (used <= limit) return;
  try {
    writeSync(2, mark + ": the process used " + Math.round(used / 1024 / 1024) + " MB, the limit is " + limitMb + " MB\\n");
  } finally {
    process.kill(process.pid, "SIGKILL");
  }
}, every);
`;

/** Starts the guard; the memory check is on only when `limitMb` is a positive number. */
export function guardWorker(limitMb: string | undefined): void {
  const parsed = Number(limitMb);
  const limit = limitMb && Number.isFinite(parsed) && parsed > 0 ? parsed : 0;
  const thread = new Worker(GUARD, { eval: true, workerData: { limitMb: limit, parent: process.ppid, mark: MEMORY_GUARD_MARK, every: CHECK_EVERY_MS } });
  thread.unref();
}
