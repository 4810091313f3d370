/**
 * On Linux, where the kernel lets an unprivileged user have one, each worker runs in a PID
 * namespace of its own, under `unshare` and a shell that is the namespace's first process
 * (pid 1), both expendable:
 *  - it sees no process outside it: its parent is that shell, kill(-1) reaches only what
 *    it started itself, and lab's pid means nothing in there;
 *  - when it ends, the shell ends, and the kernel kills everything left in the namespace,
 *    detached or not.
 * (Node itself is not pid 1, which the kernel shields from its own signals: a worker that
 * kills itself must die as it would anywhere.)
 * Elsewhere (macOS, a kernel or policy that refuses user namespaces) workers run as plain
 * children, and only the process group and the guard's tracking hold (see README).
 */
import { spawnSync } from "node:child_process";
import { constants as osConstants } from "node:os";

/** Set to "off" to run workers without a PID namespace (a test of the fallback, or a machine where it misbehaves). */
export const PID_NAMESPACE_ENV = "LAB_PID_NAMESPACE";

const UNSHARE_ARGS = ["--user", "--map-root-user", "--pid", "--fork", "--kill-child"];

let available: boolean | undefined;

/** Whether workers get PID namespaces here, probed once per process (a few ms). */
export function pidNamespaces(): boolean {
  if (process.platform !== "linux" || process.env[PID_NAMESPACE_ENV] === "off") return false;
  available ??= spawnSync("unshare", [...UNSHARE_ARGS, "true"], { stdio: "ignore", timeout: 5_000 }).status === 0;
  return available;
}

/** The shell runs node and waits for it (a lone command would be exec'd, making node pid 1). */
const SHELL_ARGS = ["/bin/sh", "-c", '"$@"; exit $?', "lab-worker"];

/** How to start `node …args` in a PID namespace of its own, or null where there is none. */
export function inPidNamespace(): { command: string; args: string[] } | null {
  return pidNamespaces() ? { command: "unshare", args: [...UNSHARE_ARGS, ...SHELL_ARGS, process.execPath] } : null;
}

/** How a worker ended, seen through the shell, which turns death by signal N into exit code 128 + N. */
export function workerExit(code: number | null, signal: NodeJS.Signals | null, namespaced: boolean): { code: number | null; signal: NodeJS.Signals | null } {
  if (!namespaced || signal !== null || code === null || code <= 128) return { code, signal };
  const name = Object.entries(osConstants.signals).find(([, n]) => n === code - 128)?.[0] as NodeJS.Signals | undefined;
  return name ? { code: null, signal: name } : { code, signal };
}
