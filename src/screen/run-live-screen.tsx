import type { Key } from "#ink";
import type { ReactElement } from "react";
import type { Exercise } from "../../checker/model/exercises.js";
import type { Io } from "../terminal/io.js";
import { onSignals, QUIT_SIGNALS } from "../terminal/signals.js";
import type { SessionEvent, WatchSession } from "../watch/watch-session.js";
import type { LiveCommand } from "./key-map.js";
import { LiveScreen } from "./live-screen.js";
import { mountScreen } from "./mount.js";
import type { ResultsWindow } from "./results-window.js";
import type { ScreenStore } from "./screen-store.js";
import type { Readable } from "./store.js";
import { followTerminalSize } from "./terminal-size.js";

/** What `lab start` and `lab drill` both hand their live screen. */
export interface LiveScreenBase {
  io: Io;
  exercise: Exercise;
  session: Pick<WatchSession, "subscribe" | "rerun">;
}

/** One live screen: its state and frame, and what it does with the engine's events and its own commands. */
export interface LiveScreenSpec<S, C extends { kind: string }, E> extends Omit<LiveScreenBase, "exercise"> {
  /** The live screen's store: it hears resizes and holds the open pane. */
  screen: ScreenStore;
  /** What the frame is drawn from: the screen's state, or it and the screen's own beside it. */
  state: Readable<S>;
  view: (state: S, interactive: boolean) => ReactElement;
  tickMs: (state: S) => number;
  keysOn?: (state: S) => boolean;
  onEvent: (event: SessionEvent) => void;
  /** The keys in one chunk of input, taken one at a time; by default the chunk is one key. */
  splitKeys?: (input: string, key: Key) => [string, Partial<Key>][];
  /** The command for one key, read against the state as the key before it left it. */
  commandFor: (input: string, key: Partial<Key>) => C | null;
  /** Carries out the screen's own commands; `finish` closes the screen with an exit. */
  onCommand: (command: Exclude<C, LiveCommand>, finish: (exit: E) => void) => void;
  /** How many of the open pane's lines fit now: a page, for scrolling. */
  paneRows: () => number;
  /** Where the results window stands now (null: they fit), for scrolling them. */
  resultsWindow: () => ResultsWindow | null;
  /** The exit of q, Ctrl-C and a quit signal. */
  quitExit: E;
  /** Dispatches the closing frame, drawn before the screen unmounts. */
  closingFrame?: () => void;
}

const LIVE_KINDS = new Set<string>(["quit", "rerun", "close-pane", "scroll", "scroll-results", "toggle-output"] satisfies LiveCommand["kind"][]);
const isLive = (command: { kind: string }): command is LiveCommand => LIVE_KINDS.has(command.kind);

/**
 * Shows a live screen until it finishes (a command, q, Ctrl-C, a signal), then resolves with
 * the exit. The first run starts at once. Everything it starts (the session's listener, the
 * resize listener, the signal handlers, Ink) is stopped before it resolves.
 */
export function runLiveScreen<S, C extends { kind: string }, E>(spec: LiveScreenSpec<S, C, E>): Promise<E> {
  const { io, session, screen } = spec;
  return new Promise((resolveExit) => {
    let finished = false;
    const onCommand = (command: C) => {
      if (!isLive(command)) return spec.onCommand(command as Exclude<C, LiveCommand>, finish);
      switch (command.kind) {
        case "quit":
          return finish(spec.quitExit);
        case "rerun":
          return session.rerun();
        case "close-pane":
          return screen.dispatch({ type: "pane-closed" });
        case "scroll":
          return screen.dispatch({ type: "pane-scrolled", by: command.by, height: spec.paneRows() });
        case "scroll-results": {
          const window = spec.resultsWindow();
          if (!window) return;
          return screen.dispatch({ type: "results-scrolled", offset: Math.max(0, Math.min(window.max, window.offset + command.by)) });
        }
        case "toggle-output":
          return screen.dispatch({ type: "output-toggled" });
      }
    };
    const onKey = (input: string, key: Key) => {
      for (const [one, flags] of spec.splitKeys?.(input, key) ?? [[input, key]]) {
        const command = spec.commandFor(one, flags);
        if (command) onCommand(command);
      }
    };

    const unsubscribe = session.subscribe(spec.onEvent);
    const stopFollowing = followTerminalSize(io.stdout, (size) => screen.dispatch({ type: "resized", size }));
    const keysOn = spec.keysOn ?? (() => true);
    const instance = mountScreen(io, <LiveScreen state={spec.state} view={spec.view} onKey={onKey} tickMs={spec.tickMs} keysOn={keysOn} />);
    const stopSignals = onSignals(QUIT_SIGNALS, () => finish(spec.quitExit));

    function finish(exit: E): void {
      if (finished) return;
      finished = true;
      stopSignals();
      stopFollowing();
      unsubscribe();
      const unmount = () => {
        instance.unmount();
        void instance.waitUntilExit().finally(() => resolveExit(exit));
      };
      if (!spec.closingFrame) return unmount();
      // Draw the closing frame before unmounting, so what is printed after the screen is not
      // preceded by a stale copy of its live part.
      spec.closingFrame();
      setImmediate(unmount);
    }
    session.rerun();
  });
}
