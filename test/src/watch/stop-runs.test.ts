import { expect, test } from "vitest";
import { RunStopper } from "../../../src/watch/stop-runs.js";

const started = { type: "run-started", exercise: "01-adder", file: "f.ts" } as const;
const collected = { type: "tests-collected", names: ["a"] } as const;

function stopper() {
  let aborts = 0;
  const s = new RunStopper({ run: async () => ({}) as never, abort: () => void aborts++ });
  return { s, aborts: () => aborts };
}

test("once the run's tests are collected, stop kills the workers at once", () => {
  const { s, aborts } = stopper();
  s.observe(started);
  s.observe(collected);
  s.stop();
  expect(aborts()).toBe(1);
});

test("before collection, stop waits for it, then kills the workers", () => {
  const { s, aborts } = stopper();
  s.observe(started);
  s.stop();
  expect(aborts()).toBe(0);
  s.observe(collected);
  expect(aborts()).toBe(1);
});

test("a new run forgets the last run's collection", () => {
  const { s, aborts } = stopper();
  s.observe(started);
  s.observe(collected);
  s.observe(started);
  s.stop();
  expect(aborts()).toBe(0);
});

test("without stop, nothing is killed", () => {
  const { s, aborts } = stopper();
  s.observe(started);
  s.observe(collected);
  expect(aborts()).toBe(0);
});
