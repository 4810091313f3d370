/** `lab drill --history`: a table per exercise and a sparkline of its green times, as plain lines. */
import { formatSeconds } from "../progress/drills.js";
import { personalBest } from "./compare.js";
import type { DrillRecord } from "./history.js";
import { DRILL_MESSAGES as M } from "./messages.js";

const BLOCKS = "▁▂▃▄▅▆▇█";

/** One block per value, low to high between the smallest and the largest; all equal sit in the middle. */
export function sparkline(values: number[]): string {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return values.map((v) => (max === min ? BLOCKS[3]! : BLOCKS[Math.round(((v - min) / (max - min)) * (BLOCKS.length - 1))]!)).join("");
}

/** How many green times the trend shows, the latest ones. */
export const TREND_LENGTH = 30;

const HEAD = ["#", "ended (UTC)", "time", "lines", "runs", "result", "peeked", "interview"];
const RIGHT = new Set([0, 2, 3, 4]);

const when = (at: string | undefined) => (at ? new Date(at).toISOString().slice(0, 16).replace("T", " ") : "");

function cells(record: DrillRecord): string[] {
  return [
    record.attempt === undefined ? "" : String(record.attempt),
    when(record.at),
    formatSeconds(record.seconds),
    record.lines === undefined ? "" : String(record.lines),
    record.runs === undefined ? "" : String(record.runs),
    record.passed ? (record.pasted ? "pasted" : "green") : "gave up",
    record.peeked ? "yes" : "",
    record.interview ? `${record.interview.right}/${record.interview.asked}` : "",
  ];
}

function table(rows: string[][]): string[] {
  const all = [HEAD, ...rows];
  const widths = HEAD.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  return all.map((row) => `  ${row.map((cell, i) => (RIGHT.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join("  ")}`.trimEnd());
}

/** One exercise's attempts, oldest first: title, table, trend and best against the target. */
export function exerciseHistory(exercise: { number: number; title: string }, records: DrillRecord[], targetSeconds: number): string[] {
  const lines = [M.historyTitle(exercise.number, exercise.title), ...table(records.map(cells))];
  const green = records
    .filter((r) => r.passed)
    .map((r) => r.seconds)
    .slice(-TREND_LENGTH);
  if (green.length === 1) lines.push(M.trendOne(sparkline(green), green[0]!));
  else if (green.length > 1) lines.push(M.trend(sparkline(green), green[0]!, green.at(-1)!));
  lines.push(M.summary(personalBest(records), targetSeconds));
  return lines;
}
