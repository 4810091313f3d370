/**
 * The lab's side of the outside watcher (outside-watcher.ts): started once per runner, told of
 * each worker process as it is forked and as it exits.
 */
import { fork, type ChildProcess } from "node:child_process";
import { labPaths } from "../../paths.js";
import { killGroup } from "./kill-group.js";

/** The start of the line a worker's output gets when the guard stops it for its memory. */
export const MEMORY_GUARD_MARK = "lab: memory limit exceeded";

/** `track`: record what the worker starts, to kill it by pid when the worker goes (no PID namespace holds it). */
export type GuardRequest = { type: "watch"; pid: number; limitMb: number | null; track: boolean } | { type: "forget"; pid: number };
export type GuardReport = { type: "over-memory"; pid: number; usedMb: number; limitMb: number };
/** What the guard sends: reports, and once, that it listens. */
export type GuardMessage = GuardReport | { type: "ready" };

/** What a worker stopped for its memory leaves in its output, for whoever explains its death. */
export const overMemoryLine = (report: GuardReport) => `${MEMORY_GUARD_MARK}: the process used ${report.usedMb} MB, the limit is ${report.limitMb} MB\n`;

export class OutsideWatcher {
  private readonly listeners = new Map<number, (report: GuardReport) => void>();
  /** Requests held until the guard says it listens: one sent sooner is lost, on a busy machine. */
  private pending: GuardRequest[] | null = [];
  /** What is watched now, for close() to stop itself should the guard not be listening yet. */
  private readonly watching = new Set<number>();

  private constructor(private readonly process: ChildProcess) {
    process.on("message", (report: GuardMessage) => {
      if (report.type === "ready") {
        const held = this.pending ?? [];
        this.pending = null;
        for (const request of held) this.send(request);
        return;
      }
      this.listeners.get(report.pid)?.(report);
    });
    // Neither the guard nor its channel keeps the lab running; the channel closing is its cue.
    process.unref();
    process.channel?.unref();
  }

  static start(): OutsideWatcher {
    // Its own process group, so a Ctrl-C in the terminal reaches the lab, not the guard.
    return new OutsideWatcher(fork(labPaths().outsideWatcher, [], { execArgv: [], stdio: ["ignore", "ignore", "ignore", "ipc"], detached: true }));
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** Watches `child` until it exits; `limitMb` also bounds its resident memory; `track` see GuardRequest. */
  watch(child: ChildProcess, limitMb: number | null, track: boolean, overMemory: (report: GuardReport) => void): void {
    const pid = child.pid;
    if (pid === undefined) return;
    this.listeners.set(pid, overMemory);
    this.watching.add(pid);
    this.send({ type: "watch", pid, limitMb, track });
    child.once("exit", () => {
      this.listeners.delete(pid);
      this.watching.delete(pid);
      this.send({ type: "forget", pid });
    });
  }

  private send(request: GuardRequest): void {
    if (this.pending) this.pending.push(request);
    else if (this.process.connected) this.process.send(request);
  }

  close(): void {
    // A guard that never listened cannot stop what it was to watch; the lab does it itself.
    if (this.pending) for (const pid of this.watching) killGroup(pid);
    if (this.process.connected) this.process.disconnect();
  }
}
