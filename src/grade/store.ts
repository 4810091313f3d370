/**
 * results.jsonl: one record per line, appended the moment a pair finishes, so a crash or
 * Ctrl-C keeps everything finished so far. Readers skip lines that are not records (a line
 * torn by a kill), and the later of two records for a pair wins.
 */
import { appendFileSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { writeAtomically } from "../progress/write-atomically.js";
import { parseRecord, type GradeRecord } from "./record.js";

export const RESULTS_FILE = "results.jsonl";

/** Every record in a results.jsonl, in file order; a missing file has none. */
export function readRecords(file: string): GradeRecord[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .map(parseRecord)
    .filter((r): r is GradeRecord => r !== null);
}

/** The newest record per pair: a later `at` wins, and on a tie the one that comes later. */
export function latestByKey(records: GradeRecord[]): Map<string, GradeRecord> {
  const latest = new Map<string, GradeRecord>();
  for (const record of records) {
    const seen = latest.get(record.key);
    if (!seen || record.at >= seen.at) latest.set(record.key, record);
  }
  return latest;
}

/** True when the file exists and its last byte is not a newline (a kill tore its last line). */
function endsTorn(file: string): boolean {
  if (!existsSync(file)) return false;
  const fd = openSync(file, "r");
  try {
    const { size } = fstatSync(fd);
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    closeSync(fd);
  }
}

export class ResultsStore {
  readonly file: string;
  private mended = false;

  constructor(readonly dir: string) {
    this.file = join(dir, RESULTS_FILE);
  }

  /** Makes sure results can be saved here before any grading starts; throws when they cannot. */
  touch(): void {
    mkdirSync(this.dir, { recursive: true });
    appendFileSync(this.file, "");
  }

  latest(): Map<string, GradeRecord> {
    return latestByKey(readRecords(this.file));
  }

  /** Appends one record as one line, first ending a line torn by an earlier kill. */
  append(record: GradeRecord): void {
    mkdirSync(this.dir, { recursive: true });
    if (!this.mended && endsTorn(this.file)) appendFileSync(this.file, "\n");
    this.mended = true;
    appendFileSync(this.file, `${JSON.stringify(record)}\n`);
  }

  /** Replaces the whole file (a merge's combined records). */
  replaceAll(records: GradeRecord[]): void {
    writeAtomically(this.file, records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  }
}
