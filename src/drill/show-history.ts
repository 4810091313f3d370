/** `lab drill --history [N]`: every attempt as a table with a trend, per exercise, as plain lines. */
import type { Exercise } from "../../checker/model/exercises.js";
import { writeLine, type Io } from "../terminal/io.js";
import { drillsFile } from "../progress/drills.js";
import { exerciseHistory } from "./history-view.js";
import { attemptsOf, HISTORY_MESSAGES, readHistory } from "./history.js";
import { DRILL_MESSAGES as M } from "./messages.js";

export interface ShowHistoryOptions {
  io: Io;
  workspaceDir: string;
  exercises: Exercise[];
  /** Only this exercise; every exercise with attempts when null. */
  only: Exercise | null;
  /** The time target of exercise `n`. */
  targetSeconds: (n: number) => number;
}

/** Prints the history; a corrupt line is named on stderr and the rest still shows. Always exit code 0. */
export function showHistory({ io, workspaceDir, exercises, only, targetSeconds }: ShowHistoryOptions): number {
  const history = readHistory(workspaceDir);
  if (history.skipped.length > 0) writeLine(io.stderr, HISTORY_MESSAGES.skipped(drillsFile(workspaceDir), history.skipped));
  const numbers = only ? [only.number] : [...new Set(history.records.map((r) => r.exercise))].sort((a, b) => a - b);
  const sections = numbers
    .map((n) => ({ n, records: attemptsOf(history, n) }))
    .filter(({ records }) => records.length > 0)
    .map(({ n, records }) => {
      const title = exercises.find((e) => e.number === n)?.title ?? "";
      return exerciseHistory({ number: n, title }, records, targetSeconds(n));
    });
  if (sections.length === 0) {
    writeLine(io.stdout, only ? M.historyNoneFor(only.number) : M.historyNone);
    return 0;
  }
  sections.forEach((lines, i) => {
    if (i > 0) writeLine(io.stdout);
    for (const line of lines) writeLine(io.stdout, line);
  });
  return 0;
}
