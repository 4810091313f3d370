import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

let writes = 0;

/**
 * Writes a file whole or not at all: a temp file beside it (its folder made if needed), then
 * a rename over the old one. A failed write leaves the old file and no temp file behind.
 */
export function writeAtomically(file: string, text: string): void {
  const temp = `${file}.${process.pid}.${writes++}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temp, text);
    renameSync(temp, file);
  } catch (err) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // nothing was written, or nothing can be
    }
    throw err;
  }
}
