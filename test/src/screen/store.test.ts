import { expect, test } from "vitest";
import { combineStores, createStore } from "../../../src/screen/store.js";

type Count = { type: "add"; by: number } | { type: "same" };
const counter = (state: number, action: Count) => (action.type === "add" ? state + action.by : state);

test("a store without deferrable actions tells its listeners of every change at once, and of nothing else", () => {
  const store = createStore(counter, 0);
  let heard = 0;
  const stop = store.subscribe(() => void heard++);
  store.dispatch({ type: "add", by: 2 });
  store.dispatch({ type: "same" });
  expect([store.getState(), heard]).toEqual([2, 1]);
  stop();
  store.dispatch({ type: "add", by: 1 });
  expect([store.getState(), heard]).toEqual([3, 1]);
});

test("combined stores read as one object that stays the same until one of them changes", () => {
  const a = createStore(counter, 0);
  const b = createStore(counter, 10);
  const both = combineStores({ a, b });
  let heard = 0;
  const stop = both.subscribe(() => void heard++);
  const first = both.getState();
  expect(first).toEqual({ a: 0, b: 10 });
  expect(both.getState()).toBe(first); // React's useSyncExternalStore needs a stable snapshot
  b.dispatch({ type: "add", by: 1 });
  expect(both.getState()).toEqual({ a: 0, b: 11 });
  expect(both.getState()).not.toBe(first);
  a.dispatch({ type: "add", by: 1 });
  expect(heard).toBe(2);
  stop();
  a.dispatch({ type: "add", by: 1 });
  b.dispatch({ type: "add", by: 1 });
  expect(heard).toBe(2);
});
