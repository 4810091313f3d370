/** State held outside React and changed only by a pure reducer, so the engine and the keys can dispatch into it. */
import { realTimers, type Timers } from "../watch/timers.js";

/** What a view needs of a store: the state now, and word when it changes. */
export interface Readable<S> {
  getState(): S;
  subscribe(listener: () => void): () => void;
}

export interface Store<S, A> extends Readable<S> {
  dispatch(action: A): void;
}

export interface StoreOptions<A extends { type: string }> {
  /** Actions whose redraw may wait up to `deferMs`, so a burst of them redraws once; all others redraw at once. */
  deferrable?: ReadonlySet<A["type"]>;
  deferMs?: number;
  timers?: Timers;
}

export function createStore<S, A extends { type: string }>(reducer: (state: S, action: A) => S, initial: S, options: StoreOptions<A> = {}): Store<S, A> {
  const { deferrable, deferMs = 0, timers = realTimers } = options;
  let state = initial;
  let pending: unknown = null;
  const listeners = new Set<() => void>();
  const cancel = () => {
    if (pending !== null) timers.clearTimeout(pending);
    pending = null;
  };
  const notify = () => {
    cancel();
    for (const listener of listeners) listener();
  };
  return {
    getState: () => state,
    dispatch(action) {
      const next = reducer(state, action);
      if (next === state) return;
      state = next;
      if (!deferrable?.has(action.type)) notify();
      else pending ??= timers.setTimeout(notify, deferMs);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) cancel();
      };
    },
  };
}

type StatesOf<T> = { [K in keyof T]: T[K] extends Readable<infer S> ? S : never };

/** Several stores read as one: an object of their states, the same object until one of them changes. */
export function combineStores<T extends Record<string, Readable<unknown>>>(stores: T): Readable<StatesOf<T>> {
  const entries = Object.entries(stores);
  let last: Record<string, unknown> | null = null;
  return {
    getState() {
      const seen = last;
      if (seen === null || entries.some(([name, store]) => store.getState() !== seen[name])) {
        last = Object.fromEntries(entries.map(([name, store]) => [name, store.getState()]));
      }
      return last as StatesOf<T>;
    },
    subscribe(listener) {
      const stops = entries.map(([, store]) => store.subscribe(listener));
      return () => {
        for (const stop of stops) stop();
      };
    },
  };
}
