import type { Timers } from "../watch/timers.js";
import { screenReducer, type ScreenAction, type ScreenState } from "./screen-state.js";
import { createStore, type Store } from "./store.js";

/** Holds the screen state outside React, so the engine and the keys can dispatch into it. */
export type ScreenStore = Store<ScreenState, ScreenAction>;

/** How often rows may redraw while a run is going; each redraw takes CPU from that run. */
export const LIVE_ROWS_MS = 100;

/** Per-test events redraw at most every LIVE_ROWS_MS; everything else (a finished run, a key) at once. */
const DEFERRABLE = new Set<ScreenAction["type"]>(["tests-collected", "test-started", "test-finished", "save-seen"]);

export function createScreenStore(initial: ScreenState, timers?: Timers): ScreenStore {
  return createStore(screenReducer, initial, { deferrable: DEFERRABLE, deferMs: LIVE_ROWS_MS, timers });
}
