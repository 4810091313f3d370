/**
 * A drill's own state beside the live screen's: the clock, the runs it counts, what was
 * peeked at, and the interview. A pure reducer; every time in it comes from an injected clock
 * through the actions, so tests drive it without waiting.
 */
import type { Question } from "../../checker/model/exercises.js";
import { isPasted } from "./targets.js";

/** What can be opened during a drill: "hint", "lesson", "tier 1"…"tier 3", "solution". */
export type PeekKind = string;

export interface InterviewState {
  questions: Question[];
  /** The question being asked; equal to questions.length once all are marked. */
  index: number;
  answer: string;
  stage: "typing" | "judging";
  /** true for each answer the learner marked right. */
  marks: boolean[];
}

export interface DrillState {
  exercise: { number: number; title: string };
  attempt: number;
  file: string;
  /**
   * When the drill opened (ms on the injected clock): recall starts when the task is shown,
   * not at the first save, or a file written elsewhere and pasted in would take no time.
   */
  startedAt: number;
  /** A save was seen, or a run found the file changed from what the drill wrote: there is an attempt to record. */
  changed: boolean;
  /** Green faster than its new code can be typed (targets.ts): recorded, never a best. */
  pasted: boolean;
  /** When the first all-green run of a changed file finished. */
  stoppedAt: number | null;
  /**
   * Runs of a new version of the file once the clock runs. Running the same code again (r, or
   * a second run the watcher fires for one save) is not another try, so it is not counted.
   */
  runs: number;
  /** The file as the last run found it; at first, as the drill wrote it. */
  lastVersion: string | null;
  /** The file as the drill wrote it: a run of it is no attempt, whatever its result. */
  given: string;
  /** The run in flight started with the clock running. */
  runTimed: boolean;
  peeked: boolean;
  /** What was opened before green, in order. */
  peeks: PeekKind[];
  /** A locked thing the learner asked for, waiting for y. */
  confirm: PeekKind | null;
  /** q was pressed while the clock runs: giving up waits for y. */
  confirmGiveUp: boolean;
  /** Lines of code of the green version, once measured. */
  lines: number | null;
  /** Asked after green, when the drill runs in interview mode. */
  interview: InterviewState | null;
  questions: Question[] | null;
  /** The screen is closing: only the finished runs stay, the report follows as plain lines. */
  closed: boolean;
}

export type DrillAction =
  | { type: "saved"; at: number }
  /** `version`: the file's text as the run starts (null when it cannot be read). */
  | { type: "run-started"; at: number; version: string | null }
  | { type: "run-finished"; at: number; passed: boolean }
  /** At green: the file's lines of code, and the characters of code written into it. */
  | { type: "measured"; lines: number; chars: number }
  | { type: "peek-asked"; what: PeekKind }
  | { type: "peek-cancelled" }
  | { type: "give-up-asked" }
  | { type: "give-up-cancelled" }
  | { type: "peeked"; what: PeekKind }
  | { type: "answer-typed"; answer: string }
  | { type: "answer-submitted" }
  | { type: "answer-marked"; right: boolean }
  | { type: "closed" };

export function initialDrillState(init: {
  exercise: { number: number; title: string };
  attempt: number;
  file: string;
  /** When the drill opened, on the drill's clock. */
  openedAt: number;
  /** The drill file as written, before the learner's first save. */
  given: string;
  /** --peek: everything is open from the start, and the attempt is peeked. */
  peek?: boolean;
  /** Interview mode: these questions follow green. */
  questions?: Question[] | null;
}): DrillState {
  return {
    exercise: init.exercise,
    attempt: init.attempt,
    file: init.file,
    startedAt: init.openedAt,
    changed: false,
    pasted: false,
    stoppedAt: null,
    runs: 0,
    lastVersion: init.given,
    given: init.given,
    runTimed: false,
    peeked: init.peek ?? false,
    peeks: init.peek ? ["--peek"] : [],
    confirm: null,
    confirmGiveUp: false,
    lines: null,
    interview: null,
    questions: init.questions && init.questions.length > 0 ? init.questions : null,
    closed: false,
  };
}

export const isGreen = (state: DrillState) => state.stoppedAt !== null;

/** The clock is running: not green yet. */
export const isTiming = (state: DrillState) => state.stoppedAt === null;

/** There is an attempt under way: the file was changed, and it is not green yet. Quitting now gives it up. */
export const isAttempting = (state: DrillState) => state.changed && isTiming(state);

/** Locked things need a confirmation: before green, until the attempt has peeked once. */
export const isLocked = (state: DrillState) => !state.peeked && !isGreen(state);

/** Milliseconds on the drill's clock at `now`. */
export const elapsedMs = (state: DrillState, now: number) => Math.max(0, (state.stoppedAt ?? now) - state.startedAt);

export const interviewDone = (state: DrillState) => state.interview !== null && state.interview.index >= state.interview.questions.length;

/** The interview's score so far: answers marked right, of those marked. */
export const interviewScore = (state: DrillState) =>
  state.interview ? { right: state.interview.marks.filter(Boolean).length, asked: state.interview.marks.length } : null;

function interviewReducer(interview: InterviewState, action: DrillAction): InterviewState {
  if (interview.index >= interview.questions.length) return interview;
  switch (action.type) {
    case "answer-typed":
      return interview.stage === "typing" ? { ...interview, answer: action.answer } : interview;
    case "answer-submitted":
      return interview.stage === "typing" && interview.answer.trim() !== "" ? { ...interview, stage: "judging" } : interview;
    case "answer-marked":
      return interview.stage === "judging"
        ? { ...interview, index: interview.index + 1, answer: "", stage: "typing", marks: [...interview.marks, action.right] }
        : interview;
    default:
      return interview;
  }
}

export function drillReducer(state: DrillState, action: DrillAction): DrillState {
  switch (action.type) {
    case "saved":
      return state.changed ? state : { ...state, changed: true };
    case "run-started": {
      // The watcher may report a save after the run it caused has started: a run of a file
      // that changed is a save too.
      const changed = action.version !== state.lastVersion;
      // A run of the file as the drill wrote it, before any save, is no attempt: it cannot stop the clock.
      const attempt = state.changed || action.version !== state.given;
      const timed = state.stoppedAt === null && attempt;
      return {
        ...state,
        changed: attempt,
        runTimed: timed,
        runs: timed && changed ? state.runs + 1 : state.runs,
        lastVersion: action.version,
      };
    }
    case "run-finished": {
      if (!action.passed || !state.runTimed || isGreen(state)) return { ...state, runTimed: false };
      const interview: InterviewState | null = state.questions ? { questions: state.questions, index: 0, answer: "", stage: "typing", marks: [] } : null;
      return { ...state, changed: true, stoppedAt: action.at, runTimed: false, confirm: null, confirmGiveUp: false, interview };
    }
    case "measured":
      return { ...state, lines: action.lines, pasted: isGreen(state) && isPasted(action.chars, elapsedMs(state, state.stoppedAt ?? 0) / 1000) };
    case "peek-asked":
      return { ...state, confirm: action.what };
    case "peek-cancelled":
      return state.confirm === null ? state : { ...state, confirm: null };
    case "give-up-asked":
      return isAttempting(state) ? { ...state, confirmGiveUp: true, confirm: null } : state;
    case "give-up-cancelled":
      return state.confirmGiveUp ? { ...state, confirmGiveUp: false } : state;
    case "peeked":
      if (isGreen(state)) return { ...state, confirm: null };
      return { ...state, confirm: null, peeked: true, peeks: [...state.peeks, action.what] };
    case "closed":
      return state.closed ? state : { ...state, closed: true };
    case "answer-typed":
    case "answer-submitted":
    case "answer-marked": {
      if (!state.interview) return state;
      const interview = interviewReducer(state.interview, action);
      return interview === state.interview ? state : { ...state, interview };
    }
  }
}
