/** The live screen's whole state, and the pure reducer that every event and key goes through. */
import type { FileError, RunResult, TestOutcome, TestState } from "../../checker/model/result.js";
import type { TypeErrorReport } from "../typecheck/type-checker.js";
import type { SessionEvent } from "../watch/watch-session.js";
import { wrapCode, wrapMarkdown } from "./wrap.js";

export type RowState = "pending" | "running" | TestState;

export interface Row {
  name: string;
  state: RowState;
  ms?: number;
  /** What the learner's code printed during this test, when it printed anything. */
  output?: string;
  /** What the hidden test itself printed during this test, its report, when it printed anything. */
  report?: string;
}

/** How a pane's text is fitted to its width: markdown reflows as prose, code breaks with a marker. */
export type PaneKind = "markdown" | "code";

/** A scrollable text pane: a reference tier or the lesson, its lines fitted to `width`. */
export interface Pane {
  title: string;
  kind: PaneKind;
  text: string;
  width: number;
  lines: string[];
  offset: number;
}

/** The terminal's size in characters. */
export interface ScreenSize {
  columns: number;
  rows: number;
}

/** What a screen assumes before the terminal says otherwise: the smallest it is made for. */
export const DEFAULT_SIZE: ScreenSize = { columns: 80, rows: 24 };

/** Characters of text a pane's line holds inside its border and padding. */
export const paneWidth = (columns: number) => Math.max(10, columns - 4);

const fitPane = (kind: PaneKind, text: string, width: number) => (kind === "code" ? wrapCode(text, width) : wrapMarkdown(text, width));

/** The pane's kind from its file's name. */
export const paneKindOf = (file: string): PaneKind => (/\.(md|markdown|txt)$/i.test(file) ? "markdown" : "code");

/** One finished run, written once above the live part of the screen. */
export interface HistoryEntry {
  id: number;
  text: string;
}

export interface ScreenExercise {
  number: number;
  title: string;
  hints: string[];
  tiers: number[];
}

export interface ScreenState {
  exercise: ScreenExercise;
  file: string;
  next: { number: number; title: string } | null;
  phase: "waiting" | "running" | "idle";
  runs: number;
  rows: Row[];
  /** The file error of the run in flight, shown once that run finishes. */
  runError: FileError | null;
  /** The last finished run; its explanation stays on screen while the next run goes. */
  last: RunResult | null;
  /** A save arrived during the run in flight; another run follows. */
  queued: boolean;
  history: HistoryEntry[];
  hintsShown: number;
  /** h was pressed after the last hint. */
  hintsOver: boolean;
  pane: Pane | null;
  size: ScreenSize;
  /** A save arrived while a run was still going: that run is being stopped for the new one. */
  stopping: boolean;
  /** The type checker's errors for the file as last tested; a warning, never a failure. */
  typeErrors: TypeErrorReport[];
  notices: string[];
  watcherSilent: boolean;
  fileMissing: boolean;
  watchError: string | null;
  /** The runner failed (not the learner's code). */
  crash: string | null;
  /** In a live run (--live): the endpoint's spend so far, shown beside every verdict. */
  live: string | null;
  /**
   * The first line of the results shown when they do not fit (see screen-layout.ts); null
   * follows the run: the first test not passed is at the top.
   */
  resultsOffset: number | null;
  /** Each test's printed output and report are shown under its row (the o key). */
  showOutput: boolean;
  /** A reference that is a whole solution (tier 3) was asked for before passing: y opens it, and that is recorded. */
  peekAsked: number | null;
}

export type ScreenAction =
  | SessionEvent
  | { type: "hint-requested" }
  | { type: "pane-opened"; title: string; text: string; kind: PaneKind }
  /** `height` is how many of the pane's lines the screen shows now. */
  | { type: "pane-scrolled"; by: number; height: number }
  | { type: "resized"; size: ScreenSize }
  | { type: "pane-closed" }
  | { type: "notice"; text: string }
  | { type: "live"; text: string }
  /** A notice that no longer holds (the watcher is heard again) goes. */
  | { type: "notice-withdrawn"; text: string }
  /** `offset` is already clamped by the caller, which knows how the results are laid out. */
  | { type: "results-scrolled"; offset: number }
  | { type: "output-toggled" }
  | { type: "peek-asked"; tier: number }
  | { type: "peek-answered" };

export function initialScreenState(init: {
  exercise: ScreenExercise;
  file: string;
  next?: ScreenState["next"];
  hintsShown?: number;
  notices?: string[];
  size?: ScreenSize;
  live?: string | null;
}): ScreenState {
  return {
    exercise: init.exercise,
    file: init.file,
    next: init.next ?? null,
    phase: "waiting",
    runs: 0,
    rows: [],
    runError: null,
    last: null,
    queued: false,
    history: [],
    hintsShown: Math.min(init.hintsShown ?? 0, init.exercise.hints.length),
    hintsOver: false,
    pane: null,
    size: init.size ?? DEFAULT_SIZE,
    stopping: false,
    typeErrors: [],
    notices: init.notices ?? [],
    watcherSilent: false,
    fileMissing: false,
    watchError: null,
    crash: null,
    live: init.live ?? null,
    resultsOffset: null,
    showOutput: false,
    peekAsked: null,
  };
}

const rowOf = (test: TestOutcome): Row => ({
  name: test.name,
  state: test.state,
  ms: test.ms,
  ...(test.output ? { output: test.output } : {}),
  ...(test.report ? { report: test.report } : {}),
});

function upsertRow(rows: Row[], row: Row): Row[] {
  const at = rows.findIndex((r) => r.name === row.name);
  if (at === -1) return [...rows, row];
  return rows.map((r, i) => (i === at ? row : r));
}

/** The history's words for a run a newer save stopped. */
export const STOPPED_FOR_SAVE = "stopped for your new save";

/** What one finished run amounted to, in a few words. */
/** Tests a run skipped (a live run skips those only the scripted provider can stage). */
export const skippedCount = (result: RunResult) => result.tests.filter((t) => t.state === "skipped").length;

export function runSummary(result: RunResult): string {
  if (result.error?.kind === "timeout") return "stopped: it ran past the time limit";
  if (result.error && result.total === 0)
    return result.error.kind === "syntax" ? "syntax error" : result.error.kind === "forged" ? "stopped" : "your file did not load";
  // A live run skips what only the scripted provider can stage: "all passed" would claim those too.
  const skipped = skippedCount(result);
  if (skipped > 0) return `${result.passed} of ${result.total - skipped} passed, ${skipped} skipped`;
  if (result.status === "passed") return `all ${result.total} passed`;
  return `${result.passed} of ${result.total} passed`;
}

const clampOffset = (pane: Pane, offset: number, height: number) => Math.max(0, Math.min(offset, pane.lines.length - height));

export function screenReducer(state: ScreenState, action: ScreenAction): ScreenState {
  switch (action.type) {
    case "run-started":
      return {
        ...state,
        phase: "running",
        runs: state.runs + 1,
        queued: false,
        stopping: false,
        runError: null,
        fileMissing: false,
        crash: null,
        resultsOffset: null,
        rows: state.rows.map((r) => ({ name: r.name, state: "pending" })),
      };
    case "tests-collected":
      return { ...state, rows: action.names.map((name) => ({ name, state: "pending" })) };
    case "test-started":
      return { ...state, rows: upsertRow(state.rows, { name: action.name, state: "running" }) };
    case "test-finished":
      return { ...state, rows: upsertRow(state.rows, rowOf(action.test)) };
    case "file-error":
      return { ...state, runError: action.error };
    case "run-finished": {
      const { result } = action;
      const rows = result.tests.length > 0 ? result.tests.map(rowOf) : state.rows.map((r) => ({ name: r.name, state: "not-run" as const }));
      const entry = { id: state.runs, text: `run ${state.runs} · ${runSummary(result)} · ${Math.round(result.ms)} ms` };
      return { ...state, phase: "idle", rows, last: result, runError: null, resultsOffset: null, history: [...state.history, entry] };
    }
    case "save-seen":
      return state.phase === "running" ? { ...state, queued: true } : state;
    case "watcher-silent":
      return { ...state, watcherSilent: true };
    case "watcher-heard":
      return state.watcherSilent ? { ...state, watcherSilent: false } : state;
    case "file-missing":
      return { ...state, fileMissing: true };
    case "watch-error":
      return { ...state, watchError: action.message };
    case "run-crashed":
      return { ...state, phase: "idle", crash: action.message };
    case "type-errors":
      return { ...state, typeErrors: action.errors };
    case "run-stopping":
      return state.phase === "running" ? { ...state, stopping: true } : state;
    case "run-stopped": {
      const entry = { id: state.runs, text: `run ${state.runs} · ${STOPPED_FOR_SAVE}` };
      return { ...state, phase: "idle", stopping: false, runError: null, history: [...state.history, entry] };
    }
    case "hint-requested":
      return state.hintsShown >= state.exercise.hints.length ? { ...state, hintsOver: true } : { ...state, hintsShown: state.hintsShown + 1 };
    case "pane-opened": {
      const text = action.text.replace(/\s+$/, "");
      const width = paneWidth(state.size.columns);
      const pane: Pane = { title: action.title, kind: action.kind, text, width, lines: fitPane(action.kind, text, width), offset: 0 };
      return { ...state, pane };
    }
    case "pane-scrolled": {
      const pane = state.pane;
      if (!pane) return state;
      const height = Math.max(1, action.height);
      return { ...state, pane: { ...pane, offset: clampOffset(pane, clampOffset(pane, pane.offset, height) + action.by, height) } };
    }
    case "resized": {
      const size = { columns: Math.max(20, action.size.columns), rows: Math.max(10, action.size.rows) };
      if (size.columns === state.size.columns && size.rows === state.size.rows) return state;
      const pane = state.pane;
      const width = paneWidth(size.columns);
      if (!pane || pane.width === width) return { ...state, size, pane };
      // Keep the line at the top of the pane in view: the same share of the text from the top.
      const lines = fitPane(pane.kind, pane.text, width);
      const offset = Math.round((pane.offset / Math.max(1, pane.lines.length)) * lines.length);
      return { ...state, size, pane: { ...pane, width, lines, offset } };
    }
    case "pane-closed":
      return state.pane ? { ...state, pane: null } : state;
    case "notice":
      return state.notices.includes(action.text) ? state : { ...state, notices: [...state.notices, action.text] };
    case "live":
      return { ...state, live: action.text };
    case "notice-withdrawn":
      return state.notices.includes(action.text) ? { ...state, notices: state.notices.filter((text) => text !== action.text) } : state;
    case "results-scrolled":
      return action.offset === state.resultsOffset ? state : { ...state, resultsOffset: Math.max(0, action.offset) };
    case "output-toggled":
      return { ...state, showOutput: !state.showOutput };
    case "peek-asked":
      return { ...state, peekAsked: action.tier };
    case "peek-answered":
      return state.peekAsked === null ? state : { ...state, peekAsked: null };
  }
}

/** True when the last finished run passed every test, none skipped. */
export const allPassed = (state: ScreenState) => state.last?.status === "passed" && skippedCount(state.last) === 0;
