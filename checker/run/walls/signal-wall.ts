/**
 * A worker's own refusal to signal other processes, installed before learner code runs
 * (preload.ts) when the runner asks for it. Node's process.kill sends through
 * process._kill; that is replaced, for good, by one that signals nothing but this process.
 * Under the permission model learner code has no other way to send a signal (no child
 * processes, no native addons, no process.binding); without it, this is a speed bump only.
 */

/** Set to "own" in a worker's environment: it may signal only itself. */
export const SIGNALS_ENV = "LAB_SIGNALS";

export const refusedSignal = (pid: unknown) =>
  `lab refused to signal ${pid === 0 ? "its process group" : pid === -1 ? "every process" : `process ${String(pid)}`}: your file may signal only its own process.`;

type RawKill = (pid: number, signal: number) => number;

export function refuseForeignSignals(target: NodeJS.Process = process): void {
  const own = target as NodeJS.Process & { _kill: RawKill };
  const send = own._kill.bind(own);
  const guarded: RawKill = (pid, signal) => {
    if (pid !== target.pid) throw Object.assign(new Error(refusedSignal(pid)), { code: "ERR_LAB_SIGNAL_REFUSED" });
    return send(pid, signal);
  };
  Object.defineProperty(own, "_kill", { value: guarded, writable: false, configurable: false, enumerable: false });
}
