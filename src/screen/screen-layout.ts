/** The live screen laid out: which parts fit, and how many lines each may take. */
import { keyHints } from "./key-bar.js";
import { GAP, line, section, type Line } from "./lines.js";
import { SCREEN_MESSAGES as M } from "./screen-messages.js";
import { allResultLines, resultsPart, type ResultsWindow } from "./results-window.js";
import { headerLines, hintLines, typeErrorLines, keyLines, noticeLines, outcomeLines, paneChrome, paneLines } from "./screen-parts.js";
import type { ScreenState } from "./screen-state.js";

/** Lines the live part may take: one fewer than the terminal has, or the top scrolls away. */
export const liveHeight = (state: ScreenState) => state.size.rows - 1;

/** Cuts `lines` to `max`, the last kept line saying how many more there are. */
export function capLines(lines: Line[], max: number): Line[] {
  if (lines.length <= max) return lines;
  if (max <= 0) return [];
  return [...lines.slice(0, max - 1), line(M.moreBelow(lines.length - max + 1), { dim: true })];
}

/** The parts around the tests or the pane: header, notices, hints and keys. */
function frameParts(state: ScreenState, elapsedMs: number, interactive: boolean) {
  const width = state.size.columns;
  return {
    header: headerLines(state, elapsedMs, width),
    notes: [...section(typeErrorLines(state, width)), ...section(noticeLines(state, width)), ...section(hintLines(state, width))],
    keys: interactive ? section(keyLines(keyHints(state), width)) : [],
  };
}

/** How many of an open pane's lines fit on the screen now. */
export function paneRows(state: ScreenState, interactive = true): number {
  if (!state.pane) return 0;
  const { header, notes, keys } = frameParts(state, 0, interactive);
  const used = header.length + notes.length + keys.length + 1 + paneChrome(state.pane, state.size.columns);
  return Math.max(3, liveHeight(state) - used);
}

/** Lines the results keep however long the explanation is: a gap, the count by state, two lines of rows and where the window is. */
const RESULTS_KEPT = 5;

/**
 * The results and the explanation below them within `room` lines: the explanation comes
 * first, and the rows keep at least a line that counts them; what does not fit of the rows
 * scrolls (results-window.ts). The drill lays out its own room the same way.
 */
export function bodyLines(state: ScreenState, outcomeLines: Line[], room: number): { lines: Line[]; window: ResultsWindow | null } {
  if (state.rows.length === 0) return { lines: capLines(section(outcomeLines), Math.max(0, room)), window: null };
  const kept = Math.min(RESULTS_KEPT, 1 + allResultLines(state, state.size.columns).lines.length);
  const outcome = capLines(section(outcomeLines), Math.max(0, room - kept));
  const results = resultsPart(state, state.size.columns, Math.max(1, room - outcome.length - 1));
  return { lines: [GAP, ...results.lines, ...outcome], window: results.window };
}

function liveBody(state: ScreenState, elapsedMs: number, interactive: boolean) {
  const parts = frameParts(state, elapsedMs, interactive);
  const room = liveHeight(state) - parts.header.length - parts.notes.length - parts.keys.length;
  return { ...parts, body: bodyLines(state, outcomeLines(state, state.size.columns), room) };
}

/** Where the results window of the live screen stands now; null when the results fit or a pane covers them. */
export const resultsWindow = (state: ScreenState, interactive = true): ResultsWindow | null =>
  state.pane ? null : liveBody(state, 0, interactive).body.window;

/** Every line of the live part, fitted to the terminal: the header always stays on screen. */
export function screenLines(state: ScreenState, elapsedMs: number, interactive: boolean): Line[] {
  const width = state.size.columns;
  if (state.pane) {
    const { header, notes, keys } = frameParts(state, elapsedMs, interactive);
    return [...header, ...notes, GAP, ...paneLines(state.pane, width, paneRows(state, interactive)), ...keys];
  }
  const { header, notes, keys, body } = liveBody(state, elapsedMs, interactive);
  return [...header, ...body.lines, ...notes, ...keys];
}
