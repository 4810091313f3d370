/** `lab grade --merge`: the results.jsonl of several shards, combined as if graded in one run. */
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { UserError } from "../terminal/errors.js";
import { GRADE_DIR } from "./class-dir.js";
import { GRADE_ERRORS } from "./messages.js";
import { GRADE_FAILED } from "./options.js";
import type { GradeRecord } from "./record.js";
import { latestByKey, readRecords, RESULTS_FILE } from "./store.js";

/** The results.jsonl a merge argument stands for: DIR/.lab-grade/results.jsonl, DIR/results.jsonl, or the file itself. */
export function resultsFileIn(path: string): string {
  const candidates = [join(path, GRADE_DIR, RESULTS_FILE), join(path, RESULTS_FILE)];
  const found = candidates.find((file) => existsSync(file));
  if (found) return found;
  if (existsSync(path) && statSync(path).isFile()) return path;
  throw new UserError(GRADE_ERRORS.nothingToMerge(path), GRADE_FAILED);
}

export interface Merged {
  records: GradeRecord[];
  /** Where the combined files go: the folder of the first source's results.jsonl. */
  outDir: string;
}

/** Every source's records, the newest per pair (a tie goes to the later source), in key order. */
export function mergeResults(paths: string[]): Merged {
  const files = paths.map(resultsFileIn);
  const latest = latestByKey(files.flatMap(readRecords));
  const records = [...latest.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { records, outDir: dirname(files[0]!) };
}
