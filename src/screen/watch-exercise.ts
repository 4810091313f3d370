import type { Exercise } from "../../checker/model/exercises.js";
import { writeLine, type Io } from "../terminal/io.js";
import type { ProgressStore } from "../progress/progress-store.js";
import type { TypeCheck } from "../typecheck/type-checker.js";
import { WatchSession, type RunnerLike } from "../watch/watch-session.js";
import { runScreen, type ScreenExit } from "./run-screen.js";
import { initialScreenState } from "./screen-state.js";
import { createScreenStore } from "./screen-store.js";

export const WATCH_MESSAGES = {
  stopping: "Stopping the run in progress…",
} as const;

export interface WatchExerciseOptions {
  io: Io;
  exercise: Exercise;
  file: string;
  next: Exercise | null;
  runner: RunnerLike;
  progress: ProgressStore;
  poll: boolean;
  /** Opens the learner's editor; failures become a notice on the screen. */
  openEditor: ((onError: (sentence: string) => void) => void) | null;
  now?: () => number;
  /** Checks the file's types after each run (a warning on the screen). */
  typeCheck?: TypeCheck;
  /** In a live run (--live): what the endpoint has cost so far, shown beside each verdict. */
  live?: () => string;
}

/** One exercise on the live screen: watcher, runs and screen, all torn down before it returns. */
export async function watchExercise(options: WatchExerciseOptions): Promise<ScreenExit> {
  const { io, exercise, file, next, runner, progress, poll } = options;
  const now = options.now ?? (() => performance.now());
  const store = createScreenStore(
    initialScreenState({
      exercise,
      file,
      next: next ? { number: next.number, title: next.title } : null,
      hintsShown: progress.exercise(exercise.id).hintsShown,
      live: options.live?.() ?? null,
    }),
  );
  const notice = (text: string) => store.dispatch({ type: "notice", text });
  const previousWarn = progress.warn;
  progress.warn = notice;
  const session = await WatchSession.start({ runner, exercise, file, poll, typeCheck: options.typeCheck });
  const live = options.live;
  const stopLive = live ? session.subscribe((event) => event.type === "run-finished" && store.dispatch({ type: "live", text: live() })) : null;
  let exit: ScreenExit = "quit";
  try {
    options.openEditor?.(notice);
    const opened = now();
    exit = await runScreen({ io, exercise, session, store, progress, elapsed: () => now() - opened });
    return exit;
  } finally {
    // Quitting must not wait for learner code that may never end; moving on lets the run finish.
    if (session.running && exit === "quit") writeLine(io.stdout, WATCH_MESSAGES.stopping);
    stopLive?.();
    await session.close({ stopRun: exit === "quit" });
    progress.warn = previousWarn;
  }
}
