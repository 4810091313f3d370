/**
 * One timed drill in a terminal: a fresh drill file, the live screen with its clock, and the
 * attempt appended to the history when the learner quits. Everything it starts is torn down
 * before it returns.
 */
import { readFileSync, rmSync } from "node:fs";
import { relative } from "node:path";
import type { Exercise } from "../../checker/model/exercises.js";
import { writeLine, type Io } from "../terminal/io.js";
import { onSignals } from "../terminal/signals.js";
import { drillsFile } from "../progress/drills.js";
import { initialScreenState } from "../screen/screen-state.js";
import { createScreenStore } from "../screen/screen-store.js";
import { createStore } from "../screen/store.js";
import { fileLink } from "../screen/terminal-link.js";
import { WATCH_MESSAGES } from "../screen/watch-exercise.js";
import { TypeChecker } from "../typecheck/type-checker.js";
import { WatchSession, type RunnerLike, type SessionListener } from "../watch/watch-session.js";
import { resultLines, type AttemptResult, type DrillTargets } from "./compare.js";
import { createDrillFile } from "./drill-files.js";
import { drillLines } from "./drill-lines.js";
import { drillScreen } from "./drill-screen.js";
import { drillReducer, elapsedMs, initialDrillState, interviewScore, isGreen, type DrillState } from "./drill-state.js";
import { attemptsOf, HISTORY_MESSAGES, readHistory, saveRecord, type DrillRecord } from "./history.js";
import { DRILL_MESSAGES as M } from "./messages.js";
import { typedChars } from "./targets.js";

/** What the drill needs of a watch session; tests pass one they drive by hand. */
export interface DrillSession {
  subscribe(listener: SessionListener): () => void;
  rerun(): void;
  readonly running: boolean;
  close(options?: { stopRun?: boolean }): Promise<void>;
}

export interface DrillOptions {
  io: Io;
  exercise: Exercise;
  workspaceDir: string;
  runner: RunnerLike;
  poll: boolean;
  peek: boolean;
  interview: boolean;
  targets: DrillTargets;
  /** The clock, in ms; tests inject one. */
  now?: () => number;
  /** The wall-clock date recorded with the attempt. */
  date?: () => Date;
  /** Starts watching the drill file; tests pass a fake session. */
  startSession?: (file: string) => Promise<DrillSession>;
  tickMs?: number;
  /** Type-check the drill file after each run (a warning on the screen); on unless false. */
  typeCheck?: boolean;
  /**
   * A live drill (--live): what the endpoint has cost so far, shown beside each verdict. Its
   * tests that only the scripted provider can stage are skipped, so the attempt is not recorded.
   */
  live?: () => string;
}

/** Lines of code in the drill file now; a file that is gone counts none. */
function measureFile(file: string): number {
  try {
    return drillLines(readFileSync(file, "utf8"));
  } catch {
    return 0;
  }
}

/**
 * The history line for an attempt that ended, or null when the clock never started. `nowMs`
 * is the drill clock when the learner quit (what an abandoned attempt is timed to), `at` the
 * date written beside it.
 */
export function recordOf(state: DrillState, end: { nowMs: number; at: Date; lines: number; file: string }): DrillRecord | null {
  if (!state.changed) return null;
  const passed = isGreen(state);
  const { lines, file } = end;
  const record: DrillRecord = {
    exercise: state.exercise.number,
    seconds: Math.round(elapsedMs(state, end.nowMs) / 100) / 10,
    passed,
    abandoned: !passed,
    peeked: state.peeked,
    lines: passed && state.lines !== null ? state.lines : lines,
    runs: state.runs,
    attempt: state.attempt,
    at: end.at.toISOString(),
    file,
  };
  if (state.peeks.length > 0) record.peeks = state.peeks;
  if (passed && state.pasted) record.pasted = true;
  const score = interviewScore(state);
  if (passed && score) record.interview = score;
  return record;
}

export async function runDrill(options: DrillOptions): Promise<number> {
  const { io, exercise, workspaceDir, targets } = options;
  const now = options.now ?? (() => performance.now());
  const date = options.date ?? (() => new Date());
  const history = readHistory(workspaceDir);
  if (history.skipped.length > 0) writeLine(io.stderr, HISTORY_MESSAGES.skipped(drillsFile(workspaceDir), history.skipped));
  const previous = attemptsOf(history, exercise.number);
  const { attempt, file } = createDrillFile(workspaceDir, exercise, Math.max(0, ...previous.map((r) => r.attempt ?? 0)));
  const given = readFileSync(file, "utf8");
  writeLine(io.stdout, M.created(exercise.number, attempt, fileLink(file)));
  writeLine(io.stdout, M.howTo);
  if (options.peek) writeLine(io.stdout, M.peekFlag);
  if (options.poll) writeLine(io.stdout, M.polling);
  const { live } = options;
  if (live) writeLine(io.stdout, M.liveNotKept);

  const screen = createScreenStore(initialScreenState({ exercise, file, live: live?.() ?? null }));
  const drill = createStore(
    drillReducer,
    initialDrillState({ exercise, attempt, file, given, openedAt: now(), peek: options.peek, questions: options.interview ? exercise.questions : null }),
  );
  const typeCheck = options.startSession || options.typeCheck === false ? null : new TypeChecker();
  const startSession =
    options.startSession ??
    ((f: string) => WatchSession.start({ runner: options.runner, exercise, file: f, poll: options.poll, typeCheck: typeCheck ?? undefined }));
  const session = await startSession(file);
  const stopLive = live ? session.subscribe((event) => event.type === "run-finished" && screen.dispatch({ type: "live", text: live() })) : null;
  const measure = () => measureFile(file);
  const typed = () => typedChars(given, readFileSafe(file) ?? given);
  const version = () => readFileSafe(file);
  const recordAt = (nowMs: number) => recordOf(drill.getState(), { nowMs, at: date(), lines: measure(), file: relative(workspaceDir, file) });
  // What is already in the history for this attempt: written at green, or when the terminal closed.
  let saved: DrillRecord | null = null;
  const saveNow = (record: DrillRecord | null) => {
    if (!record || live) return;
    try {
      saveRecord(workspaceDir, record);
      saved = record;
    } catch (err) {
      screen.dispatch({ type: "notice", text: M.recordFailed((err as Error).message) });
    }
  };
  // A closed window (SIGHUP) or a kill (SIGTERM) may not leave time to tear the screen down:
  // the attempt is written first, synchronously, before the screen hears the signal.
  const onSignal = () => saveNow(saved?.passed ? null : recordAt(now()));
  const stopSignals = onSignals(["SIGHUP", "SIGTERM"], onSignal);
  let quitAt = 0;
  try {
    const onGreen = () => saveNow(recordAt(now()));
    await drillScreen({ io, exercise, session, screen, drill, now, measure, typed, version, previous, targets, tickMs: options.tickMs, onGreen });
  } finally {
    quitAt = now();
    stopSignals();
    stopLive?.();
    // Quitting must not wait for learner code that may never end.
    if (session.running) writeLine(io.stdout, WATCH_MESSAGES.stopping);
    await session.close({ stopRun: true });
    await typeCheck?.close();
  }

  const final = recordAt(quitAt);
  // An attempt given up by a signal keeps the time it was written with; a green one gains its interview score.
  const record: DrillRecord | null = saved !== null && !(saved as DrillRecord).passed ? saved : final;
  if (!record) {
    const untouched = readFileSafe(file) === given;
    if (untouched) rmSync(file, { force: true });
    writeLine(io.stdout, M.notStarted(file, untouched));
    return 0;
  }
  const attemptResult: AttemptResult = {
    ...record,
    peeked: record.peeked ?? false,
    pasted: record.pasted ?? false,
    lines: record.lines ?? 0,
    runs: record.runs ?? 0,
    interview: record.interview ?? null,
  };
  for (const line of resultLines(attemptResult, previous, targets)) writeLine(io.stdout, line);
  if (live) {
    writeLine(io.stdout, M.liveNotKept);
    return 0;
  }
  try {
    if (JSON.stringify(record) !== JSON.stringify(saved)) saveRecord(workspaceDir, record);
    writeLine(io.stdout, M.recorded(drillsFile(workspaceDir)));
  } catch (err) {
    writeLine(io.stderr, M.recordFailed((err as Error).message));
    return 1;
  }
  return 0;
}

function readFileSafe(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}
