/**
 * The test rows as one list of lines (each row, and under it what the learner's code and the
 * test itself printed when output is shown), and the window of it that fits: when the list is
 * longer than its room, a line counting the rows by state, then as many lines as fit from the
 * offset, then where the window is. The same keys as a pane scroll it (key-map.ts).
 */
import { line, styled, type Line } from "./lines.js";
import { SCREEN_MESSAGES as M } from "./screen-messages.js";
import { rowLines, MARKS } from "./screen-parts.js";
import type { Row, RowState, ScreenState } from "./screen-state.js";
import { wrapCodeLine, wrapLine } from "./wrap.js";

/** How many lines of one test's output the screen shows; the rest are counted. */
export const OUTPUT_LINES_SHOWN = 12;

/** The bar that sets a test's output apart from the rows. */
const BAR = "    │ ";

/** The lines of printed text, without the newline that usually ends it. */
export const outputTextLines = (output: string) => output.replace(/\r?\n$/, "").split(/\r?\n/);

/** A test's report without the blank lines a test frames its table with for a terminal's log: under a row, the bar frames it. */
export function reportText(report: string): string {
  const lines = report.split(/\r?\n/);
  const blank = (at: number) => lines[at]!.trim() === "";
  let [from, to] = [0, lines.length];
  while (from < to && blank(from)) from++;
  while (to > from && blank(to - 1)) to--;
  return lines.slice(from, to).join("\n");
}

/**
 * What a test printed, under its row, behind a bar, in at most `max` rows of the screen (a
 * long line takes the rows it wraps to); the printed lines not shown whole are counted.
 */
export function outputLines(output: string, width: number, max = OUTPUT_LINES_SHOWN): Line[] {
  const all = outputTextLines(output);
  const shown: string[] = [];
  let whole = 0;
  for (const text of all) {
    const room = max - shown.length;
    const pieces = wrapCodeLine(text, Math.max(10, width - BAR.length));
    shown.push(...pieces.slice(0, room).map((piece) => `${BAR}${piece}`));
    if (pieces.length > room) break;
    whole++;
  }
  const cut = whole < all.length ? [line(`${BAR}${M.outputCut(all.length - whole)}`, { dim: true })] : [];
  return [...styled(shown, { dim: true }), ...cut];
}

/** Where the results window stands: its first line, the last first line it may have, and how many lines it shows. */
export interface ResultsWindow {
  offset: number;
  max: number;
  height: number;
}

/** Every line of the results, and the line where the first test still open (failed, not run, running) starts. */
export function allResultLines(state: ScreenState, width: number): { lines: Line[]; open: number } {
  const lines: Line[] = [];
  let open = -1;
  for (const row of state.rows) {
    if (open === -1 && (row.state === "failed" || row.state === "not-run" || row.state === "running")) open = lines.length;
    lines.push(...rowLines(row, width));
    if (state.showOutput && row.output) lines.push(...outputLines(row.output, width));
    if (state.showOutput && row.report) lines.push(line(`    ${M.reportLabel}`, { dim: true }), ...outputLines(reportText(row.report), width));
  }
  return { lines, open: Math.max(0, open) };
}

const countsLine = (rows: Row[], width: number): Line[] => {
  const counts = new Map<RowState, number>();
  for (const row of rows) counts.set(row.state, (counts.get(row.state) ?? 0) + 1);
  const summary = [...counts].map(([state, n]) => `${MARKS[state].mark} ${n} ${M.rowState[state]}`).join(" · ");
  return styled(wrapLine(summary, width, "  "), { dim: true });
};

/**
 * The results within `budget` lines: all of them when they fit; otherwise the rows counted by
 * state, a window of the list, and a line saying which lines it shows. `window` is null when
 * everything fits (nothing to scroll).
 */
export function resultsPart(state: ScreenState, width: number, budget: number): { lines: Line[]; window: ResultsWindow | null } {
  const { lines: all, open } = allResultLines(state, width);
  if (all.length <= budget) return { lines: all, window: null };
  const counts = countsLine(state.rows, width);
  // No room for a window: the count alone, as much of it as fits.
  if (budget < counts.length + 2) return { lines: counts.slice(0, Math.max(1, budget)), window: null };
  const height = Math.max(1, budget - counts.length - 1);
  const max = Math.max(0, all.length - height);
  const offset = Math.min(max, state.resultsOffset ?? open);
  const shown = all.slice(offset, offset + height);
  const footer = line(`  ${M.resultsFooter(offset + 1, offset + shown.length, all.length)}`, { dim: true });
  return { lines: [...counts, ...shown, footer], window: { offset, max, height } };
}

/** True when the learner's code or a test of the last run printed something: the o key has something to show. */
export const hasOutput = (state: ScreenState) => state.rows.some((row) => row.output || row.report);

/** The o key's hint, naming what it shows; null when there is nothing to show. */
export const outputKeyHint = (state: ScreenState): string | null =>
  hasOutput(state) ? M.outputKey(state.showOutput, state.rows.some((row) => row.output) ? "output" : "report") : null;
