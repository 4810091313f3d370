/**
 * Temp folders that say whose they are. A lab killed with SIGKILL never removes its
 * scratch folder (a grader's holds copies of learners' files and hidden tests), so each
 * folder records its owner's pid and start time, and whoever makes the next one removes
 * the folders of owners that are gone, never one whose owner still runs.
 */
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const OWNER_FILE = ".lab-owner";

/** The fields of /proc/PID/stat after the command name (Linux), or null. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** When `pid` started, in clock ticks since boot (Linux), so a reused pid is not taken for its old owner. */
export function startTicks(pid: number): string {
  return statFields(pid)?.[19] ?? "";
}

/** This process's PID namespace (Linux), e.g. "pid:[4026531836]", or "" where there is none to name. */
export function pidNamespace(): string {
  try {
    return readlinkSync("/proc/self/ns/pid");
  } catch {
    return "";
  }
}

/** Whether the process recorded as `owner` ("pid start namespace") still runs. */
export function ownerAlive(owner: string): boolean {
  const [pidText, started = "", namespace = ""] = owner.trim().split(" ");
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return true; // not ours to judge
  // A pid means nothing in another PID namespace (a lab run inside one, or this one inside one).
  if (namespace !== "" && namespace !== pidNamespace()) return true;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const fields = statFields(pid);
  if (!fields) return true; // no /proc here: the pid answering is all there is to go on
  // A zombie has ended, its parent has just not collected it yet.
  return fields[0] !== "Z" && (started === "" || fields[19] === started);
}

/** Removes every `prefix`* folder in `dir` whose recorded owner is gone; folders that record none are left alone. */
export function removeStale(prefix: string, dir: string = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.startsWith(prefix));
  } catch {
    return removed;
  }
  for (const name of names) {
    let owner: string;
    try {
      owner = readFileSync(join(dir, name, OWNER_FILE), "utf8");
    } catch {
      continue; // no owner recorded (yet): someone else's, or one being made this moment
    }
    if (ownerAlive(owner)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** A new `prefix`XXXXXX folder in the temp folder, owned by this process, after removing stale ones. */
export function ownedTempDir(prefix: string): string {
  const parent = tmpdir();
  removeStale(prefix, parent);
  const dir = mkdtempSync(join(parent, prefix));
  writeFileSync(join(dir, OWNER_FILE), `${process.pid} ${startTicks(process.pid)} ${pidNamespace()}\n`);
  return dir;
}
