import { realTimers, type Timers } from "../watch/timers.js";
import { screenReducer, type ScreenAction, type ScreenState } from "./screen-state.js";

/** Holds the screen state outside React, so the engine and the keys can dispatch into it. */
export interface ScreenStore {
  getState(): ScreenState;
  dispatch(action: ScreenAction): void;
  subscribe(listener: () => void): () => void;
}

/** How often rows may redraw while a run is going; each redraw takes CPU from that run. */
export const LIVE_ROWS_MS = 100;

/** Per-test events redraw at most every LIVE_ROWS_MS; everything else (a finished run, a key) at once. */
const DEFERRABLE = new Set<ScreenAction["type"]>(["tests-collected", "test-started", "test-finished", "save-seen"]);

export function createScreenStore(initial: ScreenState, timers: Timers = realTimers): ScreenStore {
  let state = initial;
  let pending: unknown = null;
  const listeners = new Set<() => void>();
  const notify = () => {
    if (pending !== null) timers.clearTimeout(pending);
    pending = null;
    for (const listener of listeners) listener();
  };
  return {
    getState: () => state,
    dispatch(action) {
      const next = screenReducer(state, action);
      if (next === state) return;
      state = next;
      if (!DEFERRABLE.has(action.type)) notify();
      else pending ??= timers.setTimeout(notify, LIVE_ROWS_MS);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && pending !== null) {
          timers.clearTimeout(pending);
          pending = null;
        }
      };
    },
  };
}
