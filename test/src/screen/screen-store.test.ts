import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { createScreenStore, LIVE_ROWS_MS } from "../../../src/screen/screen-store.js";
import { realTimers } from "../../../src/watch/timers.js";
import { fresh, NAMES, passed, result } from "./fixtures.js";

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

function watched() {
  const store = createScreenStore(fresh(), realTimers);
  let draws = 0;
  const unsubscribe = store.subscribe(() => void draws++);
  return { store, draws: () => draws, unsubscribe };
}

test("a run starting or finishing, and keys, redraw at once", () => {
  const { store, draws } = watched();
  store.dispatch({ type: "run-started", exercise: "01-adder", file: "f" });
  expect(draws()).toBe(1);
  store.dispatch({ type: "hint-requested" });
  expect(draws()).toBe(2);
  store.dispatch({ type: "run-finished", result: result([passed(NAMES[0]!)]) });
  expect(draws()).toBe(3);
});

test("per-test events are batched into one redraw per interval, with the latest state", async () => {
  const { store, draws } = watched();
  store.dispatch({ type: "run-started", exercise: "01-adder", file: "f" });
  store.dispatch({ type: "tests-collected", names: NAMES });
  store.dispatch({ type: "test-started", name: NAMES[0]! });
  store.dispatch({ type: "test-finished", test: passed(NAMES[0]!) });
  expect(draws()).toBe(1);
  expect(store.getState().rows[0]!.state).toBe("passed"); // the state itself is never behind
  await vi.advanceTimersByTimeAsync(LIVE_ROWS_MS);
  expect(draws()).toBe(2);
  await vi.advanceTimersByTimeAsync(LIVE_ROWS_MS * 3);
  expect(draws()).toBe(2);
});

test("a finished run draws at once and cancels the batched redraw", async () => {
  const { store, draws } = watched();
  store.dispatch({ type: "run-started", exercise: "01-adder", file: "f" });
  store.dispatch({ type: "test-started", name: NAMES[0]! });
  store.dispatch({ type: "run-finished", result: result([passed(NAMES[0]!)]) });
  expect(draws()).toBe(2);
  await vi.advanceTimersByTimeAsync(LIVE_ROWS_MS * 2);
  expect(draws()).toBe(2);
});

test("an action that changes nothing draws nothing; the last unsubscribe cancels a batched redraw", async () => {
  const { store, draws, unsubscribe } = watched();
  store.dispatch({ type: "pane-closed" });
  expect(draws()).toBe(0);
  store.dispatch({ type: "run-started", exercise: "01-adder", file: "f" });
  store.dispatch({ type: "test-started", name: "x" });
  unsubscribe();
  expect(vi.getTimerCount()).toBe(0);
});
