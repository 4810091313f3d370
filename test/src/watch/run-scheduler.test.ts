import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { RunScheduler, SAVE_DEBOUNCE_MS } from "../../../src/watch/run-scheduler.js";
import { realTimers } from "../../../src/watch/timers.js";

/** A run the test finishes by hand, so "a run in flight" is a state the test controls. */
function controlledRuns() {
  const finishers: (() => void)[] = [];
  let started = 0;
  const run = () => {
    started++;
    return new Promise<void>((done) => finishers.push(done));
  };
  return { run, started: () => started, finishCurrent: () => finishers.shift()!() };
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

test("a save runs once saving has been quiet for the debounce", async () => {
  const runs = controlledRuns();
  const scheduler = new RunScheduler(runs.run, realTimers);
  scheduler.saved();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS - 1);
  expect(runs.started()).toBe(0);
  await vi.advanceTimersByTimeAsync(1);
  expect(runs.started()).toBe(1);
});

test("ten saves within 100 ms coalesce into one run", async () => {
  const runs = controlledRuns();
  const scheduler = new RunScheduler(runs.run, realTimers);
  for (let i = 0; i < 10; i++) {
    scheduler.saved();
    await vi.advanceTimersByTimeAsync(10);
  }
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS);
  expect(runs.started()).toBe(1);
  runs.finishCurrent();
  await vi.advanceTimersByTimeAsync(1_000);
  expect(runs.started()).toBe(1);
});

test("ten saves spread so the debounce fires mid-burst still cause at most two runs", async () => {
  const runs = controlledRuns();
  const scheduler = new RunScheduler(runs.run, realTimers, 5);
  for (let i = 0; i < 10; i++) {
    scheduler.saved();
    await vi.advanceTimersByTimeAsync(10); // every gap is longer than the 5 ms debounce
  }
  expect(runs.started()).toBe(1); // the first run is still in flight; the other nine saves wait as one
  runs.finishCurrent();
  await vi.advanceTimersByTimeAsync(0);
  expect(runs.started()).toBe(2);
  runs.finishCurrent();
  await vi.advanceTimersByTimeAsync(100);
  expect(runs.started()).toBe(2);
});

test("a save made while a run is in flight is run next, after that run", async () => {
  const runs = controlledRuns();
  const scheduler = new RunScheduler(runs.run, realTimers);
  scheduler.trigger();
  expect(runs.started()).toBe(1);
  scheduler.saved();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 4);
  expect(runs.started()).toBe(1); // never two at once
  runs.finishCurrent();
  await vi.advanceTimersByTimeAsync(0);
  expect(runs.started()).toBe(2);
  runs.finishCurrent();
  await scheduler.idle();
  expect(scheduler.busy).toBe(false);
});

test("a run that throws does not stop the next one", async () => {
  let calls = 0;
  const scheduler = new RunScheduler(async () => {
    calls++;
    if (calls === 1) throw new Error("boom");
  }, realTimers);
  scheduler.trigger();
  await scheduler.idle();
  scheduler.trigger();
  await scheduler.idle();
  expect(calls).toBe(2);
});

test("after close, saves and pending reruns are dropped, and idle waits for the run in flight", async () => {
  const runs = controlledRuns();
  const scheduler = new RunScheduler(runs.run, realTimers);
  scheduler.trigger();
  scheduler.trigger(); // pending
  scheduler.close();
  scheduler.saved();
  let idle = false;
  void scheduler.idle().then(() => (idle = true));
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 2);
  expect(idle).toBe(false);
  runs.finishCurrent();
  await vi.advanceTimersByTimeAsync(0);
  expect(idle).toBe(true);
  expect(runs.started()).toBe(1);
});
