/**
 * An opt-in memory limit for a worker process, for callers that run untrusted code (grading).
 * `--max-old-space-size` bounds the JavaScript heap only; a Buffer or typed array lives
 * outside it. This watches the whole process's resident memory and, past the limit, writes
 * one line to stderr and kills the process, so the caller sees why it died.
 */
import { writeSync } from "node:fs";

/** The environment variable that turns the guard on: the limit in MB. */
export const MEMORY_LIMIT_ENV = "LAB_MEMORY_LIMIT_MB";

/** The start of the line a worker writes to stderr just before the guard kills it. */
export const MEMORY_GUARD_MARK = "lab: memory limit exceeded";

const CHECK_EVERY_MS = 25;

/** Starts the guard when `limitMb` is a positive number; otherwise does nothing. */
export function guardMemory(limitMb: string | undefined): void {
  const limit = Number(limitMb);
  if (!limitMb || !Number.isFinite(limit) || limit <= 0) return;
  const bytes = limit * 1024 * 1024;
  const kill = process.kill.bind(process);
  const rss = process.memoryUsage.rss.bind(process.memoryUsage);
  const timer = setInterval(() => {
    const used = rss();
    if (used <= bytes) return;
    try {
      writeSync(2, `${MEMORY_GUARD_MARK}: the process used ${Math.round(used / 1024 / 1024)} MB, the limit is ${limit} MB\n`);
    } finally {
      kill(process.pid, "SIGKILL");
    }
  }, CHECK_EVERY_MS);
  timer.unref();
}
