import type { Key } from "#ink";
import type { ScreenState } from "../screen/screen-state.js";
import { paneCommand, resultsCommand, type LiveCommand } from "../screen/key-map.js";
import { drillPaneRows, drillResultsWindow } from "./drill-lines-view.js";
import { interviewDone, isAttempting, type DrillState, type PeekKind } from "./drill-state.js";

/** What a key press asks for during a drill; the controller carries it out. */
export type DrillCommand =
  | LiveCommand
  /** Open a hint, the lesson, a reference tier or the solution (locked ones ask first). */
  | { kind: "open"; what: PeekKind }
  | { kind: "confirm" }
  | { kind: "cancel" }
  /** q while the clock runs: ask before giving the attempt up. */
  | { kind: "ask-give-up" }
  | { kind: "keep-going" }
  | { kind: "type"; answer: string }
  /** Submit the answer, as it stands after this key. */
  | { kind: "submit"; answer: string }
  | { kind: "mark"; right: boolean };

const OPEN_KEYS: Record<string, PeekKind> = { h: "hint", l: "lesson", s: "solution" };

/** While an answer is being typed every printable key is text; only enter, backspace and Ctrl-C act. */
function typingCommand(input: string, key: Partial<Key>, answer: string): DrillCommand | null {
  if (key.return) return { kind: "submit", answer };
  if (key.backspace || key.delete) return { kind: "type", answer: [...answer].slice(0, -1).join("") };
  if (key.ctrl || key.meta || key.escape || key.tab || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return null;
  if (key.pageUp || key.pageDown || input === "") return null;
  return { kind: "type", answer: answer + input.replace(/[\r\n\t]+/g, " ") };
}

const SPECIAL: (keyof Key)[] = [
  "ctrl",
  "meta",
  "escape",
  "return",
  "backspace",
  "delete",
  "tab",
  "upArrow",
  "downArrow",
  "leftArrow",
  "rightArrow",
  "pageUp",
  "pageDown",
];

/**
 * The keys in one chunk of input, one at a time. A terminal delivers keys pressed in quick
 * succession (a fast typist, a loaded machine, ssh) as one chunk: "y" then the next answer's
 * first letters must still be a mark and then text. An Enter at the chunk's end submits; a
 * line break inside it (a paste) is a space, so pasted lines cannot mark anything.
 */
export function splitKeys(input: string, key: Partial<Key>): [string, Partial<Key>][] {
  const chars = [...input];
  if (chars.length <= 1 || SPECIAL.some((flag) => key[flag])) return [[input, key]];
  const keys: [string, Partial<Key>][] = [];
  chars.forEach((c, i) => {
    if (c === "\r" || c === "\n") keys.push(i === chars.length - 1 ? ["", { return: true }] : [" ", {}]);
    else if (c === "\u007F" || c === "\b") keys.push(["", { backspace: true }]);
    else if (c === "\t") keys.push([" ", {}]);
    else if (c >= " ") keys.push([c, {}]);
  });
  return keys;
}

/** Maps a key to a command given both states; null for keys that do nothing now. */
export function drillCommandForKey(input: string, key: Partial<Key>, drill: DrillState, screen: ScreenState): DrillCommand | null {
  if (key.ctrl && input === "c") return { kind: "quit" };
  const interview = drill.interview;
  if (interview && !interviewDone(drill)) {
    if (interview.stage === "typing") return typingCommand(input, key, interview.answer);
    if (input === "y") return { kind: "mark", right: true };
    if (input === "n") return { kind: "mark", right: false };
    return input === "q" ? { kind: "quit" } : null;
  }
  if (drill.confirmGiveUp) return input === "y" ? { kind: "quit" } : { kind: "keep-going" };
  if (drill.confirm !== null) return input === "y" ? { kind: "confirm" } : { kind: "cancel" };
  if (input === "q") return isAttempting(drill) ? { kind: "ask-give-up" } : { kind: "quit" };
  const inPane = screen.pane ? paneCommand(input, key, drillPaneRows({ screen, drill, interactive: true })) : null;
  if (inPane) return inPane;
  const inResults = screen.pane ? null : resultsCommand(input, key, screen, drillResultsWindow({ screen, drill, interactive: true }));
  if (inResults) return inResults;
  if (input === "r") return { kind: "rerun" };
  const what = OPEN_KEYS[input];
  if (what) return { kind: "open", what };
  const tier = Number(input);
  if (/^[123]$/.test(input) && screen.exercise.tiers.includes(tier)) return { kind: "open", what: `tier ${tier}` };
  return null;
}
