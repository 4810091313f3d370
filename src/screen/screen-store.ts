import { screenReducer, type ScreenAction, type ScreenState } from "./screen-state.js";

/** Holds the screen state outside React, so the engine and the keys can dispatch into it. */
export interface ScreenStore {
  getState(): ScreenState;
  dispatch(action: ScreenAction): void;
  subscribe(listener: () => void): () => void;
}

export function createScreenStore(initial: ScreenState): ScreenStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = screenReducer(state, action);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
