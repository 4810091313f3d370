/**
 * On Linux, where the kernel lets an unprivileged user have one, each worker runs as the
 * first process of a PID namespace of its own, under `unshare` (its expendable parent):
 *  - it sees no process outside: its parent is pid 0, so kill(ppid) is kill(0), its own
 *    group; kill(-1) reaches only what it started itself;
 *  - when it dies, the kernel kills everything it started, detached or not.
 * Elsewhere (macOS, a kernel or policy that refuses user namespaces) workers run as plain
 * children, and only the process group and the guard's tracking hold (see README).
 */
import { spawnSync } from "node:child_process";

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

/** How to start `node …args` in a PID namespace of its own, or null where there is none. */
export function inPidNamespace(): { command: string; args: string[] } | null {
  return pidNamespaces() ? { command: "unshare", args: [...UNSHARE_ARGS, process.execPath] } : null;
}
