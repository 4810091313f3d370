import { existsSync, readFileSync } from "node:fs";
import { useInput, useStdin } from "ink";
import { useSyncExternalStore } from "react";
import type { Exercise } from "../../checker/run/exercises.js";
import type { Io } from "../terminal/io.js";
import { useTicker } from "../screen/live-screen.js";
import { mountScreen, onQuitSignals } from "../screen/mount.js";
import { paneKindOf } from "../screen/screen-state.js";
import { followTerminalSize } from "../screen/terminal-size.js";
import type { ScreenStore } from "../screen/screen-store.js";
import { TIER_NAMES } from "../screen/tier-names.js";
import type { WatchSession } from "../watch/watch-session.js";
import type { DrillTargets } from "./compare.js";
import { drillCommandForKey, splitKeys, type DrillCommand } from "./drill-keys.js";
import { isGreen, isLocked, isTiming, type PeekKind } from "./drill-state.js";
import type { DrillStore } from "./drill-store.js";
import { drillPaneRows } from "./drill-lines-view.js";
import { DrillView } from "./drill-view.js";
import type { DrillRecord } from "./history.js";
import { DRILL_MESSAGES as M } from "./messages.js";

export interface DrillScreenOptions {
  io: Io;
  exercise: Exercise;
  session: Pick<WatchSession, "subscribe" | "rerun">;
  screen: ScreenStore;
  drill: DrillStore;
  /** The drill's clock, in ms; tests pass a fake one. */
  now: () => number;
  /** Lines of code in the drill file now; read once, at green. */
  measure: () => number;
  /** The drill file's text now, read as each run starts; null when it cannot be read. */
  version: () => string | null;
  previous: DrillRecord[];
  targets: DrillTargets;
  /** How often the running clock redraws; 0 turns the ticking off (tests). */
  tickMs?: number;
  /** Called the moment the attempt turns green and its lines are measured. */
  onGreen?: () => void;
}

interface LiveProps extends Pick<DrillScreenOptions, "screen" | "drill" | "now" | "previous" | "targets"> {
  onCommand: (command: DrillCommand) => void;
  tickMs: number;
}

function KeyInput({ screen, drill, onCommand }: Pick<LiveProps, "screen" | "drill" | "onCommand">) {
  useInput((input, key) => {
    // Each key sees the state the one before it left.
    for (const [one, flags] of splitKeys(input, key)) {
      const command = drillCommandForKey(one, flags, drill.getState(), screen.getState());
      if (command) onCommand(command);
    }
  });
  return null;
}

function LiveDrill({ screen, drill, now, previous, targets, onCommand, tickMs }: LiveProps) {
  const screenState = useSyncExternalStore(screen.subscribe, screen.getState);
  const drillState = useSyncExternalStore(drill.subscribe, drill.getState);
  const { isRawModeSupported } = useStdin();
  useTicker(isTiming(drillState) ? tickMs : 0);
  const interactive = isRawModeSupported === true;
  return (
    <>
      {interactive && !drillState.closed ? <KeyInput screen={screen} drill={drill} onCommand={onCommand} /> : null}
      <DrillView screen={screenState} drill={drillState} nowMs={now()} interactive={interactive} previous={previous} targets={targets} />
    </>
  );
}

/** The file each pane-opening peek shows, and the pane's title. */
function paneOf(exercise: Exercise, what: PeekKind): { title: string; file: string } | null {
  if (what === "lesson") return { title: `Lesson: ${exercise.title}`, file: exercise.lesson };
  if (what === "solution") return { title: `Solution: ${exercise.title}`, file: exercise.solution };
  const tier = /^tier (\d)$/.exec(what);
  return tier ? { title: `Reference tier ${tier[1]}: ${TIER_NAMES[Number(tier[1])]}`, file: exercise.references[Number(tier[1])]! } : null;
}

/**
 * Shows the drill until the learner quits (q, Ctrl-C, a signal); the drill store then holds
 * how the attempt went. Keeps the clock: the first save starts it, the first green run after
 * it stops it.
 */
export function drillScreen(options: DrillScreenOptions): Promise<void> {
  const { io, exercise, session, screen, drill, now, measure, version } = options;
  return new Promise((resolveDone) => {
    let finished = false;
    const notice = (text: string) => screen.dispatch({ type: "notice", text });

    const open = (what: PeekKind) => {
      const pane = paneOf(exercise, what);
      // Pressing a pane's key again closes it; closing is not peeking.
      if (pane && screen.getState().pane?.title === pane.title) return screen.dispatch({ type: "pane-closed" });
      if (pane && !existsSync(pane.file)) return notice(M.noSolutionFile(pane.file));
      drill.dispatch({ type: "peeked", what });
      if (!pane) return screen.dispatch({ type: "hint-requested" });
      screen.dispatch({ type: "pane-opened", title: pane.title, text: readFileSync(pane.file, "utf8"), kind: paneKindOf(pane.file) });
    };

    const onCommand = (command: DrillCommand) => {
      switch (command.kind) {
        case "quit":
          return finish();
        case "rerun":
          return session.rerun();
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
        case "close-pane":
          return screen.dispatch({ type: "pane-closed" });
        case "scroll":
          return screen.dispatch({ type: "pane-scrolled", by: command.by, height: drillPaneRows({ screen: screen.getState(), drill: drill.getState(), interactive: true }) });
        case "type":
          return drill.dispatch({ type: "answer-typed", answer: command.answer });
        case "submit":
          drill.dispatch({ type: "answer-typed", answer: command.answer });
          return drill.dispatch({ type: "answer-submitted" });
        case "mark":
          return drill.dispatch({ type: "answer-marked", right: command.right });
      }
    };

    const unsubscribe = session.subscribe((event) => {
      const n = exercise.number;
      // The live screen's sentences for these name lab start; a drill has its own.
      if (event.type === "file-missing") return notice(M.fileMissing(event.file, n));
      if (event.type === "watcher-silent") notice(M.watcherSilent(n));
      else screen.dispatch(event);
      if (event.type === "save-seen") drill.dispatch({ type: "saved", at: now() });
      if (event.type === "run-started") drill.dispatch({ type: "run-started", at: now(), version: version() });
      if (event.type === "run-crashed") drill.dispatch({ type: "run-finished", at: now(), passed: false });
      if (event.type === "run-finished") {
        const wasGreen = isGreen(drill.getState());
        drill.dispatch({ type: "run-finished", at: now(), passed: event.result.status === "passed" });
        if (!wasGreen && isGreen(drill.getState())) {
          drill.dispatch({ type: "measured", lines: measure() });
          options.onGreen?.();
        }
      }
    });
    const stopFollowing = followTerminalSize(io.stdout, (size) => screen.dispatch({ type: "resized", size }));
    const instance = mountScreen(
      io,
      <LiveDrill screen={screen} drill={drill} now={now} previous={options.previous} targets={options.targets} onCommand={onCommand} tickMs={options.tickMs ?? 1000} />,
    );
    const stopListening = onQuitSignals(() => finish());

    function finish(): void {
      if (finished) return;
      finished = true;
      stopListening();
      stopFollowing();
      unsubscribe();
      // Draw the closing frame (finished runs only) before unmounting, so the report printed
      // after the screen is not preceded by a stale copy of the live part.
      drill.dispatch({ type: "closed" });
      setImmediate(() => {
        instance.unmount();
        void instance.waitUntilExit().finally(() => resolveDone());
      });
    }
    session.rerun();
  });
}
