/** The live screen laid out: which parts fit, and how many lines each may take. */
import { keyHints } from "./key-bar.js";
import { GAP, line, section, type Line } from "./screen-lines.js";
import { SCREEN_MESSAGES as M } from "./screen-messages.js";
import { headerLines, hintLines, typeErrorLines, keyLines, noticeLines, outcomeLines, paneChrome, paneLines, testRowLines } from "./screen-parts.js";
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

/** Every line of the live part, fitted to the terminal: the header always stays on screen. */
export function screenLines(state: ScreenState, elapsedMs: number, interactive: boolean): Line[] {
  const width = state.size.columns;
  const { header, notes, keys } = frameParts(state, elapsedMs, interactive);
  if (state.pane) return [...header, ...notes, GAP, ...paneLines(state.pane, width, paneRows(state, interactive)), ...keys];
  const room = liveHeight(state) - header.length - notes.length - keys.length;
  // The explanation comes first; the rows keep at least a line that counts them.
  const outcome = capLines(section(outcomeLines(state, width)), Math.max(0, room - 2));
  const rows = state.rows.length === 0 ? [] : [GAP, ...testRowLines(state.rows, width, Math.max(1, room - outcome.length - 1))];
  return [...header, ...rows, ...outcome, ...notes, ...keys];
}
