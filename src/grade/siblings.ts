/**
 * What a learner's file may import besides the SDK and Node: the files beside it in its own
 * folder. Grading runs a copy of the file, so those come along into the copy's folder.
 */
import { copyFileSync, readdirSync, realpathSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { MAX_FILE_KB } from "./plan.js";

const CODE = /\.(ts|mts|js|mjs|json)$/;

/**
 * Copies into `to` the code files beside `own` in `learnerDir` (each up to MAX_FILE_KB);
 * a link is made again, pointing where the original leads, so the loader's wall sees where
 * it really goes and refuses it when that is outside. Folders and dot-files stay behind.
 */
export function copySiblings(learnerDir: string, own: string, to: string): void {
  let entries;
  try {
    entries = readdirSync(learnerDir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === own || entry.name.startsWith(".")) continue;
    const from = join(learnerDir, entry.name);
    try {
      if (entry.isSymbolicLink()) symlinkSync(realpathSync(from), join(to, entry.name));
      else if (entry.isFile() && CODE.test(entry.name) && statSync(from).size <= MAX_FILE_KB * 1024) copyFileSync(from, join(to, entry.name));
    } catch {
      // A link to nothing, or a file gone since the folder was read: the import will say it is missing.
    }
  }
}
