/**
 * results.jsonl: one record per line, appended the moment a pair finishes, so a crash or
 * Ctrl-C keeps everything finished so far. Readers skip lines that are not records (a line
 * torn by a kill), and the later of two records for a pair wins.
 *
 * fresh.json: the pairs a --fresh run set out to grade again, each with when that run
 * started, kept until each has a result from then on. A run cut short leaves the rest in
 * it, so the next run, --fresh or not, grades those instead of reusing their older results.
 */
import { appendFileSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeAtomically } from "../progress/write-atomically.js";
import { parseRecord, type GradeRecord } from "./record.js";

export const RESULTS_FILE = "results.jsonl";
export const FRESH_FILE = "fresh.json";

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

  /** Pair key → when the --fresh run that has yet to re-grade it started (ISO time); unreadable is empty. */
  pendingFresh(): Map<string, string> {
    try {
      const raw = JSON.parse(readFileSync(this.freshFile, "utf8")) as unknown;
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return new Map();
      return new Map(Object.entries(raw).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    } catch {
      return new Map();
    }
  }

  /** Notes, before a --fresh run starts, the pairs it will grade again and when it started. */
  markFresh(keys: string[], since: string): void {
    const pending = this.pendingFresh();
    for (const key of keys) pending.set(key, since);
    writeAtomically(this.freshFile, `${JSON.stringify(Object.fromEntries(pending))}\n`);
  }

  /** Forgets the pairs that have a result from their fresh run on; removes fresh.json when none is left. */
  settleFresh(): void {
    const pending = this.pendingFresh();
    if (pending.size === 0) return;
    const latest = this.latest();
    const left = [...pending].filter(([key, since]) => (latest.get(key)?.at ?? "") < since);
    if (left.length === 0) rmSync(this.freshFile, { force: true });
    else if (left.length < pending.size) writeAtomically(this.freshFile, `${JSON.stringify(Object.fromEntries(left))}\n`);
  }

  private get freshFile(): string {
    return join(this.dir, FRESH_FILE);
  }

  /** Replaces the whole file (a merge's combined records). */
  replaceAll(records: GradeRecord[]): void {
    writeAtomically(this.file, records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  }
}
