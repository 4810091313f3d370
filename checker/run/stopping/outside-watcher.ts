/**
 * The outside watcher: one process per runner, watching that runner's worker processes from outside,
 * so it keeps watching while learner code blocks a worker's only thread.
 *  - When the lab process is gone (exit, crash or SIGKILL), its IPC channel closes here,
 *    and every worker still watched is killed with its process group: a `while (true) {}`
 *    cannot outlive the lab that started it.
 *  - A worker with a memory limit whose resident memory passes it is reported, then killed.
 *    (`--max-old-space-size` bounds the JavaScript heap only; a Buffer lives outside it.)
 * It runs no learner code, so its event loop is always free to notice.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { killGroup } from "./kill-group.js";
import { startTicks } from "../walls/owned-temp.js";
import type { GuardMessage, GuardReport, GuardRequest } from "./outside-watcher-link.js";

const CHECK_EVERY_MS = process.platform === "linux" ? 25 : 100;

/** Memory limits in kB, by worker pid; null when only the lab's death is watched for. */
const watched = new Map<number, number | null>();

/**
 * Every process seen below each tracked worker, with when it started: a worker outside a
 * PID namespace (see pid-namespace.ts) can start a detached child that a group kill misses
 * and that outlives it, so what it started is killed by pid when it goes.
 */
const tracked = new Map<number, Map<number, string>>();

function recordDescendants(): void {
  for (const [pid, seen] of tracked) {
    for (const child of descendantsOf(pid)) if (!seen.has(child)) seen.set(child, startTicks(child));
  }
}

/** Kills the worker's group, then each process seen below it that is still the same process. */
function stop(pid: number): void {
  killGroup(pid);
  killEscaped(pid);
}

function killEscaped(pid: number): void {
  const seen = tracked.get(pid);
  tracked.delete(pid);
  for (const [child, started] of seen ?? []) if (started !== "" && startTicks(child) === started) killGroup(child);
}

/**
 * The children of `pid` now, from the kernel's list of each of its threads: a child belongs to
 * the thread that started it, and learner code starts its children from the realm's thread.
 */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  try {
    for (const thread of readdirSync(`/proc/${pid}/task`)) {
      try {
        for (const child of readFileSync(`/proc/${pid}/task/${thread}/children`, "utf8").trim().split(/\s+/)) if (child) found.push(Number(child));
      } catch {
        // That thread ended meanwhile.
      }
    }
  } catch {
    // It exited, or this kernel keeps no children lists.
  }
  return found;
}

/** The processes below `pid` that exist now (Linux: the kernel's children lists). */
function descendantsOf(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of childrenOf(queue.shift()!)) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function rssKb(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return undefined; // It exited between the check and the read.
  }
}

/**
 * Resident memory in kB of each pid that still exists, with everything below it: a worker
 * in a PID namespace is the child of the `unshare` the lab started (see pid-namespace.ts).
 */
function residentKb(pids: number[]): Map<number, number> {
  const sizes = new Map<number, number>();
  if (process.platform === "linux") {
    for (const pid of pids) {
      const own = rssKb(pid);
      if (own !== undefined)
        sizes.set(
          pid,
          descendantsOf(pid).reduce((sum, child) => sum + (rssKb(child) ?? 0), own),
        );
    }
    return sizes;
  }
  try {
    const rows = execFileSync("ps", ["-o", "pid=,rss=", "-p", pids.join(",")], { encoding: "utf8" });
    for (const row of rows.trim().split("\n")) {
      const [pid, kb] = row.trim().split(/\s+/).map(Number);
      if (pid && kb !== undefined) sizes.set(pid, kb);
    }
  } catch {
    // ps exits 1 when none of the pids exists any more.
  }
  return sizes;
}

function checkMemory(): void {
  const limited = [...watched].filter((entry): entry is [number, number] => entry[1] !== null);
  if (limited.length === 0) return;
  const sizes = residentKb(limited.map(([pid]) => pid));
  for (const [pid, limitKb] of limited) {
    const used = sizes.get(pid);
    if (used === undefined || used <= limitKb) continue;
    const report: GuardReport = { type: "over-memory", pid, usedMb: Math.round(used / 1024), limitMb: Math.round(limitKb / 1024) };
    watched.delete(pid);
    process.send?.(report, () => stop(pid));
  }
}

process.on("message", (request: GuardRequest) => {
  if (request.type === "watch") {
    watched.set(request.pid, request.limitMb ? request.limitMb * 1024 : null);
    if (request.track) tracked.set(request.pid, new Map());
  } else {
    watched.delete(request.pid);
    // The worker is gone: whatever it started and left behind goes too.
    recordDescendants();
    killEscaped(request.pid);
  }
});

/** The lab is gone: so is everything it started. */
function stopAll(): void {
  recordDescendants();
  for (const pid of watched.keys()) stop(pid);
  for (const pid of tracked.keys()) killEscaped(pid);
  process.exit(0);
}

process.on("disconnect", stopAll);

// Polling never keeps the guard alive; the IPC channel does, for as long as the lab is there.
setInterval(() => {
  recordDescendants();
  checkMemory();
}, CHECK_EVERY_MS).unref();
// A lab that closed the channel before this line ran (a slow start on a busy machine) sent
// its "disconnect" to no listener; what it asked to watch may still be arriving.
if (!process.connected) setImmediate(stopAll);
// The lab holds its requests until this: one sent before the listener above was lost.
else process.send?.({ type: "ready" } satisfies GuardMessage);
