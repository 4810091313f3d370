import { chmodSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { tempDir } from "../../support/temp-dir.js";

/**
 * Makes `dir` really read-only: chmod for a normal user; root ignores modes, so as root the
 * immutable attribute is used. Returns an undo, or null when this machine cannot do either.
 */
export function makeReadOnly(dir: string): (() => void) | null {
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    if (spawnSync("chattr", ["+i", dir]).status !== 0) return null;
  } else {
    chmodSync(dir, 0o555);
  }
  const undo = () => (asRoot ? void spawnSync("chattr", ["-i", dir]) : chmodSync(dir, 0o755));
  try {
    writeFileSync(join(dir, ".probe"), "");
    rmSync(join(dir, ".probe"));
    undo();
    return null;
  } catch {
    return undo;
  }
}

/** Whether this machine can make a folder read-only for this process (tests that need it run only then). */
export function canMakeReadOnly(): boolean {
  const probe = tempDir("ro-probe");
  const undo = makeReadOnly(probe);
  undo?.();
  return undo !== null;
}
