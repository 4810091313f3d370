import { existsSync } from "node:fs";
import type { Exercise } from "../../checker/model/exercises.js";
import { lessonPane, solutionPane, tierPane, togglePane, type PaneSource } from "../screen/panes.js";
import { runLiveScreen, type LiveScreenBase } from "../screen/run-live-screen.js";
import type { ScreenStore } from "../screen/screen-store.js";
import { combineStores, type Store } from "../screen/store.js";
import type { SessionEvent } from "../watch/watch-session.js";
import type { DrillTargets } from "./compare.js";
import { drillCommandForKey, splitKeys, type DrillCommand } from "./drill-keys.js";
import { drillPaneRows, drillResultsWindow, type DrillFrame } from "./drill-lines-view.js";
import { isGreen, isLocked, isTiming, type DrillAction, type DrillState, type PeekKind } from "./drill-state.js";
import { DrillView } from "./drill-view.js";
import type { DrillRecord } from "./history.js";
import { DRILL_MESSAGES as M } from "./messages.js";

export type DrillStore = Store<DrillState, DrillAction>;

export interface DrillScreenOptions extends LiveScreenBase {
  screen: ScreenStore;
  drill: DrillStore;
  /** The drill's clock, in ms; tests pass a fake one. */
  now: () => number;
  /** Lines of code in the drill file now; read once, at green. */
  measure: () => number;
  /** Characters of code written into the drill file since it was given; read once, at green. */
  typed: () => number;
  /** The drill file's text now, read as each run starts; null when it cannot be read. */
  version: () => string | null;
  previous: DrillRecord[];
  targets: DrillTargets;
  /** How often the running clock redraws; 0 turns the ticking off (tests). */
  tickMs?: number;
  /** Called the moment the attempt turns green and its lines are measured. */
  onGreen?: () => void;
}

/** The pane each pane-opening peek shows; null for a hint, which opens no pane. */
function paneOf(exercise: Exercise, what: PeekKind): PaneSource | null {
  if (what === "lesson") return lessonPane(exercise);
  if (what === "solution") return solutionPane(exercise);
  const tier = /^tier (\d)$/.exec(what);
  return tier ? tierPane(exercise, Number(tier[1])) : null;
}

/**
 * Shows the drill until the learner quits (q, Ctrl-C, a signal); the drill store then holds
 * how the attempt went. Keeps the clock: it runs from the drill's opening, and the first
 * green run of a changed file stops it.
 */
export function drillScreen(options: DrillScreenOptions): Promise<void> {
  const { io, exercise, session, screen, drill, now, measure, version } = options;
  const notice = (text: string) => screen.dispatch({ type: "notice", text });
  const tickMs = options.tickMs ?? 1000;

  const open = (what: PeekKind) => {
    const pane = paneOf(exercise, what);
    if (!pane) {
      drill.dispatch({ type: "peeked", what });
      return screen.dispatch({ type: "hint-requested" });
    }
    // Closing a pane is not peeking; a solution file that is not there opens nothing.
    togglePane(screen, pane, () => {
      const there = existsSync(pane.file);
      if (there) drill.dispatch({ type: "peeked", what });
      else notice(M.noSolutionFile(pane.file));
      return there;
    });
  };

  const onEvent = (event: SessionEvent) => {
    const n = exercise.number;
    // The live screen's sentences for these name lab start; a drill has its own.
    if (event.type === "file-missing") return notice(M.fileMissing(event.file, n));
    if (event.type === "watcher-silent") notice(M.watcherSilent(n));
    else if (event.type === "watcher-heard") screen.dispatch({ type: "notice-withdrawn", text: M.watcherSilent(n) });
    else screen.dispatch(event);
    if (event.type === "save-seen") drill.dispatch({ type: "saved", at: now() });
    if (event.type === "run-started") drill.dispatch({ type: "run-started", at: now(), version: version() });
    if (event.type === "run-crashed") drill.dispatch({ type: "run-finished", at: now(), passed: false });
    if (event.type === "run-finished") {
      const wasGreen = isGreen(drill.getState());
      drill.dispatch({ type: "run-finished", at: now(), passed: event.result.status === "passed" });
      if (!wasGreen && isGreen(drill.getState())) {
        drill.dispatch({ type: "measured", lines: measure(), chars: options.typed() });
        options.onGreen?.();
      }
    }
  };

  return runLiveScreen<Pick<DrillFrame, "screen" | "drill">, DrillCommand, void>({
    io,
    session,
    screen,
    state: combineStores({ screen, drill }),
    view: (state, interactive) => <DrillView {...state} nowMs={now()} interactive={interactive} previous={options.previous} targets={options.targets} />,
    tickMs: (state) => (isTiming(state.drill) && !state.drill.closed ? tickMs : 0),
    keysOn: (state) => !state.drill.closed,
    onEvent,
    splitKeys,
    commandFor: (input, key) => drillCommandForKey(input, key, drill.getState(), screen.getState()),
    onCommand(command) {
      switch (command.kind) {
        case "open":
          return isLocked(drill.getState()) ? drill.dispatch({ type: "peek-asked", what: command.what }) : open(command.what);
        case "confirm": {
          const what = drill.getState().confirm;
          return what === null ? undefined : open(what);
        }
        case "cancel":
          return drill.dispatch({ type: "peek-cancelled" });
        case "ask-give-up":
          return drill.dispatch({ type: "give-up-asked" });
        case "keep-going":
          return drill.dispatch({ type: "give-up-cancelled" });
        case "type":
          return drill.dispatch({ type: "answer-typed", answer: command.answer });
        case "submit":
          drill.dispatch({ type: "answer-typed", answer: command.answer });
          return drill.dispatch({ type: "answer-submitted" });
        case "mark":
          return drill.dispatch({ type: "answer-marked", right: command.right });
      }
    },
    paneRows: () => drillPaneRows({ screen: screen.getState(), drill: drill.getState(), interactive: true }),
    resultsWindow: () => drillResultsWindow({ screen: screen.getState(), drill: drill.getState(), interactive: true }),
    quitExit: undefined,
    // Only the finished runs stay; the report follows as plain lines.
    closingFrame: () => drill.dispatch({ type: "closed" }),
  });
}
