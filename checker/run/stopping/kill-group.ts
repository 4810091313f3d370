import type { ChildProcess } from "node:child_process";

/** SIGKILL to a worker's whole process group (workers are group leaders), else to the process alone. */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** Whether `child` has exited (or been killed) already. */
export const hasExited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

/** Kills `child` and whatever it started (its process group), unless it is gone already. */
export function killTree(child: ChildProcess): void {
  if (child.pid === undefined || hasExited(child)) return;
  killGroup(child.pid);
}

/** Kills `child` with its group and resolves once it has exited. */
export function killAndWait(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return Promise.resolve();
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  killTree(child);
  return exited;
}
