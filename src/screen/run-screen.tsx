import { readFileSync } from "node:fs";
import type { Exercise } from "../../checker/run/exercises.js";
import type { Io } from "../cli/io.js";
import type { ProgressStore } from "../progress/progress-store.js";
import { recordRun } from "../progress/record-run.js";
import type { WatchSession } from "../watch/watch-session.js";
import type { ScreenCommand } from "./key-map.js";
import { LiveScreen } from "./live-screen.js";
import { FRAME_MS, mountScreen, onQuitSignals } from "./mount.js";
import { paneRows } from "./screen-layout.js";
import { paneKindOf } from "./screen-state.js";
import type { ScreenStore } from "./screen-store.js";
import { followTerminalSize } from "./terminal-size.js";
import { TIER_NAMES } from "./tier-names.js";

export type ScreenExit = "quit" | "next";

export interface RunScreenOptions {
  io: Io;
  exercise: Exercise;
  session: Pick<WatchSession, "subscribe" | "rerun">;
  store: ScreenStore;
  progress: ProgressStore;
  /** Milliseconds since the screen opened. */
  elapsed: () => number;
}

/** Shows the live screen until the learner quits (q, Ctrl-C, a signal) or moves to the next exercise. */
export function runScreen({ io, exercise, session, store, progress, elapsed }: RunScreenOptions): Promise<ScreenExit> {
  return new Promise((resolveExit) => {
    let finished = false;
    const togglePane = (title: string, file: string) => {
      if (store.getState().pane?.title === title) return store.dispatch({ type: "pane-closed" });
      store.dispatch({ type: "pane-opened", title, text: readFileSync(file, "utf8"), kind: paneKindOf(file) });
    };
    const onCommand = (command: ScreenCommand) => {
      switch (command.kind) {
        case "quit":
        case "next":
          return finish(command.kind);
        case "hint": {
          store.dispatch({ type: "hint-requested" });
          const shown = store.getState().hintsShown;
          progress.update(exercise.id, (record) => void (record.hintsShown = Math.max(record.hintsShown, shown)));
          return;
        }
        case "tier":
          return togglePane(`Reference tier ${command.tier}: ${TIER_NAMES[command.tier]}`, exercise.references[command.tier]!);
        case "lesson":
          return togglePane(`Lesson: ${exercise.title}`, exercise.lesson);
        case "rerun":
          return session.rerun();
        case "close-pane":
          return store.dispatch({ type: "pane-closed" });
        case "scroll":
          return store.dispatch({ type: "pane-scrolled", by: command.by, height: paneRows(store.getState()) });
      }
    };

    const unsubscribe = session.subscribe((event) => {
      store.dispatch(event);
      // The rows first: the frame is drawn within FRAME_MS of the dispatch, the progress file written after it.
      if (event.type === "run-finished") setTimeout(() => recordRun(progress, exercise.id, event.result), FRAME_MS);
    });
    const stopFollowing = followTerminalSize(io.stdout, (size) => store.dispatch({ type: "resized", size }));
    const instance = mountScreen(io, <LiveScreen store={store} onCommand={onCommand} elapsed={elapsed} />);
    const stopListening = onQuitSignals(() => finish("quit"));

    function finish(exit: ScreenExit): void {
      if (finished) return;
      finished = true;
      stopListening();
      stopFollowing();
      unsubscribe();
      instance.unmount();
      void instance.waitUntilExit().finally(() => resolveExit(exit));
    }
    session.rerun();
  });
}
