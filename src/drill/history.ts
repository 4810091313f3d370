/** The drill history, `<workspace>/.lab/drills.jsonl`: one JSON object per attempt, oldest first. */
import { readFileSync } from "node:fs";
import { drillsFile, parseDrillLine, type DrillLine } from "../progress/drills.js";
import { writeAtomically } from "../progress/write-atomically.js";
import { listed } from "../../checker/model/words.js";

/** What one attempt leaves behind. `exercise`, `seconds` and `passed` are all `lab list` and `lab grade` read. */
export interface DrillRecord {
  exercise: number;
  /** From the drill's opening to the first all-green run, or to giving up. */
  seconds: number;
  passed: boolean;
  /** Quit before green. */
  abandoned?: boolean;
  peeked?: boolean;
  /** What was opened, in order: "hint", "lesson", "tier 1", "solution". */
  peeks?: string[];
  /** Green faster than its code can be typed: the file was pasted in, so the time is no best (src/drill/targets.ts). */
  pasted?: boolean;
  /** Lines of code, imports and type declarations not counted (see drill-lines.ts). */
  lines?: number;
  /** Runs of a new version of the file. */
  runs?: number;
  attempt?: number;
  /** When the attempt ended, ISO 8601. */
  at?: string;
  /** The drill file, relative to the workspace. */
  file?: string;
  /** Interview mode: questions marked right, of those asked. */
  interview?: { right: number; asked: number };
}

export interface History {
  records: DrillRecord[];
  /** 1-based numbers of the lines that were not drill records. */
  skipped: number[];
}

export const HISTORY_MESSAGES = {
  skipped: (file: string, lines: number[]) =>
    lines.length === 1
      ? `Line ${lines[0]} of ${file} is not a drill record, so it was skipped.`
      : `Lines ${listed(lines)} of ${file} are not drill records, so they were skipped.`,
} as const;

const count = (v: unknown) => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : undefined);

/** The fields this version knows, each kept only when it has the right shape. */
function recordOf(line: DrillLine): DrillRecord {
  const record: DrillRecord = { exercise: line.exercise, seconds: line.seconds, passed: line.passed };
  if (typeof line["abandoned"] === "boolean") record.abandoned = line["abandoned"];
  if (typeof line.peeked === "boolean") record.peeked = line.peeked;
  if (line["pasted"] === true) record.pasted = true;
  const peeks = line["peeks"];
  if (Array.isArray(peeks) && peeks.every((p) => typeof p === "string")) record.peeks = peeks as string[];
  const lines = count(line["lines"]);
  if (lines !== undefined) record.lines = lines;
  const runs = count(line["runs"]);
  if (runs !== undefined) record.runs = runs;
  const attempt = count(line["attempt"]);
  if (attempt !== undefined) record.attempt = attempt;
  if (typeof line["at"] === "string" && !Number.isNaN(Date.parse(line["at"]))) record.at = line["at"];
  if (typeof line["file"] === "string") record.file = line["file"];
  const interview = line["interview"] as Record<string, unknown> | undefined;
  const right = count(interview?.["right"]);
  const asked = count(interview?.["asked"]);
  if (right !== undefined && asked !== undefined && right <= asked) record.interview = { right, asked };
  return record;
}

/** Every attempt in the history; a missing file is an empty history, a corrupt line is skipped and named. */
export function readHistory(workspaceDir: string): History {
  let text: string;
  try {
    text = readFileSync(drillsFile(workspaceDir), "utf8");
  } catch {
    return { records: [], skipped: [] };
  }
  const history: History = { records: [], skipped: [] };
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    const drill = parseDrillLine(line);
    if (drill) history.records.push(recordOf(drill));
    else history.skipped.push(i + 1);
  });
  return history;
}

/**
 * Adds one line to the history, atomically: the whole new file goes to a temp file that is
 * then renamed over the old one, so a reader sees the old history or the new one, never half
 * a line. An O_APPEND write would also keep concurrent appenders apart, but a crash or a full
 * disk mid-write leaves a torn line, and the next append glues itself onto it, losing both.
 * The price is rewriting a file of ~200 bytes per attempt, and two drills finishing within the
 * same few milliseconds could lose one line; the bytes already there are copied unchanged,
 * corrupt lines included, so nothing is silently dropped.
 */
export function appendRecord(workspaceDir: string, record: DrillRecord): void {
  const before = historyText(workspaceDir);
  const separator = before === "" || before.endsWith("\n") ? "" : "\n";
  writeAtomically(drillsFile(workspaceDir), `${before}${separator}${JSON.stringify(record)}\n`);
}

function historyText(workspaceDir: string): string {
  try {
    return readFileSync(drillsFile(workspaceDir), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    return "";
  }
}

const sameAttempt = (a: DrillRecord, b: DrillRecord) => a.exercise === b.exercise && a.attempt === b.attempt && a.file === b.file;

/**
 * Writes an attempt that may already be in the history (written at green, then again with
 * its interview score): the line of the same exercise, attempt and file is replaced in
 * place, atomically; without one, the record is appended.
 */
export function saveRecord(workspaceDir: string, record: DrillRecord): void {
  const lines = historyText(workspaceDir).split("\n");
  const at = lines.findLastIndex((line) => {
    const parsed = parseDrillLine(line);
    return parsed !== null && sameAttempt(recordOf(parsed), record);
  });
  if (at === -1) return appendRecord(workspaceDir, record);
  lines[at] = JSON.stringify(record);
  writeAtomically(drillsFile(workspaceDir), lines.join("\n"));
}

/** This exercise's attempts, oldest first. */
export const attemptsOf = (history: History, exercise: number) => history.records.filter((r) => r.exercise === exercise);
