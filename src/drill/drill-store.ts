import { drillReducer, type DrillAction, type DrillState } from "./drill-state.js";

/** The drill state outside React, beside the screen's store; every change redraws at once. */
export interface DrillStore {
  getState(): DrillState;
  dispatch(action: DrillAction): void;
  subscribe(listener: () => void): () => void;
}

export function createDrillStore(initial: DrillState): DrillStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = drillReducer(state, action);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
