import type { Key } from "#ink";
import { hasOutput, type ResultsWindow } from "./results-window.js";
import { paneRows, resultsWindow } from "./screen-layout.js";
import { allPassed, type ScreenState } from "./screen-state.js";

/** An open pane's keys: close it, or scroll it by a line or a page. */
export type PaneCommand = { kind: "close-pane" } | { kind: "scroll"; by: number };

/** The results' keys when they do not fit: the same as a pane's scrolling. */
export type ResultsCommand = { kind: "scroll-results"; by: number } | { kind: "toggle-output" };

/** What every live screen does alike (the runner carries these out): quit, rerun, an open pane's keys and the results'. */
export type LiveCommand = { kind: "quit" } | { kind: "rerun" } | PaneCommand | ResultsCommand;

/** What a key press asks for on the live screen of `lab start`. */
export type ScreenCommand =
  | LiveCommand
  | { kind: "hint" }
  | { kind: "tier"; tier: number }
  | { kind: "lesson" }
  | { kind: "next" }
  /** The answer to "open tier 3 before passing?": y opens it (recorded), any other key goes back. */
  | { kind: "peek"; open: boolean };

/** The keys of an open pane (a reference, the lesson): close it, or scroll by a line or a page. */
export function paneCommand(input: string, key: Partial<Key>, height: number): PaneCommand | null {
  if (key.escape) return { kind: "close-pane" };
  if (key.upArrow || input === "k") return { kind: "scroll", by: -1 };
  if (key.downArrow || input === "j") return { kind: "scroll", by: 1 };
  if (key.pageUp || input === "b") return { kind: "scroll", by: -height };
  if (key.pageDown || input === " ") return { kind: "scroll", by: height };
  return null;
}

/**
 * The results' keys with no pane open: o shows or hides what the tests printed; when the
 * results do not fit (`window`), the pane's keys scroll them.
 */
export function resultsCommand(input: string, key: Partial<Key>, state: ScreenState, window: ResultsWindow | null): ResultsCommand | null {
  if (input === "o" && hasOutput(state)) return { kind: "toggle-output" };
  if (!window || key.escape) return null;
  const scroll = paneCommand(input, key, window.height);
  return scroll?.kind === "scroll" ? { kind: "scroll-results", by: scroll.by } : null;
}

/** Maps a key to a command given the screen's state; null for keys that do nothing now. */
export function commandForKey(input: string, key: Partial<Key>, state: ScreenState): ScreenCommand | null {
  if (key.ctrl && input === "c") return { kind: "quit" };
  if (state.peekAsked !== null) return { kind: "peek", open: input === "y" };
  if (input === "q") return { kind: "quit" };
  const inPane = state.pane ? paneCommand(input, key, paneRows(state)) : null;
  if (inPane) return inPane;
  const inResults = state.pane ? null : resultsCommand(input, key, state, resultsWindow(state));
  if (inResults) return inResults;
  if (input === "h") return { kind: "hint" };
  if (input === "l") return { kind: "lesson" };
  if (input === "r") return { kind: "rerun" };
  if (input === "n" && allPassed(state) && state.next) return { kind: "next" };
  const tier = Number(input);
  if (/^[123]$/.test(input) && state.exercise.tiers.includes(tier)) return { kind: "tier", tier };
  return null;
}
