import type { Exercise } from "../../checker/run/exercises.js";
import { writeLine, type Io } from "../cli/io.js";
import type { ProgressStore } from "../progress/progress-store.js";
import { WatchSession, type RunnerLike } from "../watch/watch-session.js";
import { runScreen, type ScreenExit } from "./run-screen.js";
import { initialScreenState } from "./screen-state.js";
import { createScreenStore } from "./screen-store.js";

export const WATCH_MESSAGES = {
  stopping: "Waiting for the run in progress to stop…",
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
    }),
  );
  const notice = (text: string) => store.dispatch({ type: "notice", text });
  const previousWarn = progress.warn;
  progress.warn = notice;
  const session = await WatchSession.start({ runner, exercise, file, poll });
  try {
    options.openEditor?.(notice);
    const opened = now();
    return await runScreen({ io, exercise, session, store, progress, elapsed: () => now() - opened });
  } finally {
    if (session.running) writeLine(io.stdout, WATCH_MESSAGES.stopping);
    await session.close();
    progress.warn = previousWarn;
  }
}
