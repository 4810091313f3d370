import type { ProgressStore } from "../progress/progress-store.js";
import { recordRun } from "../progress/record-run.js";
import { commandForKey, type ScreenCommand } from "./key-map.js";
import { FRAME_MS } from "./mount.js";
import { isSolutionTier, lessonPane, tierPane, togglePane } from "./panes.js";
import { runLiveScreen, type LiveScreenBase } from "./run-live-screen.js";
import { paneRows, resultsWindow } from "./screen-layout.js";
import { allPassed, type ScreenState } from "./screen-state.js";
import type { ScreenStore } from "./screen-store.js";
import { ScreenView } from "./screen-view.js";

export type ScreenExit = "quit" | "next";

export interface RunScreenOptions extends LiveScreenBase {
  store: ScreenStore;
  progress: ProgressStore;
  /** Milliseconds since the screen opened. */
  elapsed: () => number;
}

/** Shows the live screen until the learner quits (q, Ctrl-C, a signal) or moves to the next exercise. */
export function runScreen({ io, exercise, session, store, progress, elapsed }: RunScreenOptions): Promise<ScreenExit> {
  /** Tier 3 opens without asking once the exercise has passed, or once its peek is recorded. */
  const mayPeek = () => {
    const record = progress.exercise(exercise.id);
    return Boolean(record.passedAt || record.tier3ForcedAt) || allPassed(store.getState());
  };
  return runLiveScreen<ScreenState, ScreenCommand, ScreenExit>({
    io,
    session,
    screen: store,
    state: store,
    view: (state, interactive) => <ScreenView state={state} elapsedMs={elapsed()} interactive={interactive} />,
    tickMs: () => 1000,
    onEvent(event) {
      store.dispatch(event);
      // The rows first: the frame is drawn within FRAME_MS of the dispatch, the progress file written after it.
      if (event.type === "run-finished") setTimeout(() => recordRun(progress, exercise.id, event.result), FRAME_MS);
    },
    commandFor: (input, key) => commandForKey(input, key, store.getState()),
    onCommand(command, finish) {
      switch (command.kind) {
        case "next":
          return finish("next");
        case "hint": {
          store.dispatch({ type: "hint-requested" });
          const shown = store.getState().hintsShown;
          progress.update(exercise.id, (record) => void (record.hintsShown = Math.max(record.hintsShown, shown)));
          return;
        }
        case "tier": {
          const pane = tierPane(exercise, command.tier);
          const opening = store.getState().pane?.title !== pane.title;
          // The last tier is a whole solution: before a pass it is a peek, asked once and recorded.
          if (opening && isSolutionTier(exercise, command.tier) && !mayPeek()) return store.dispatch({ type: "peek-asked", tier: command.tier });
          return togglePane(store, pane);
        }
        case "peek": {
          const tier = store.getState().peekAsked;
          store.dispatch({ type: "peek-answered" });
          if (!command.open || tier === null) return;
          progress.update(exercise.id, (record, now) => void (record.tier3ForcedAt ??= now));
          return togglePane(store, tierPane(exercise, tier));
        }
        case "lesson":
          return togglePane(store, lessonPane(exercise));
      }
    },
    paneRows: () => paneRows(store.getState()),
    resultsWindow: () => resultsWindow(store.getState()),
    quitExit: "quit",
  });
}
