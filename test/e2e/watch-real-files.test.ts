import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, expect, test } from "vitest";
import type { Exercise } from "../../checker/model/exercises.js";
import type { RunResult } from "../../checker/model/result.js";
import { SAVE_DEBOUNCE_MS } from "../../src/watch/run-scheduler.js";
import { WatchSession, type SessionEvent } from "../../src/watch/watch-session.js";
import { tempDir } from "../support/temp-dir.js";
import { until } from "../support/until.js";

// The watcher against a real file system, with a runner that only counts. Real time here:
// what is under test is how the OS's events arrive.
let dir: string;
let file: string;
const exercise = { id: "01-adder" } as Exercise;

beforeEach(() => {
  dir = tempDir("watch");
  file = join(dir, "01-adder.ts");
  writeFileSync(file, "v0");
});

async function session(poll = false, runMs = 0) {
  let runs = 0;
  const runner = {
    run: async () => {
      runs++;
      await new Promise((r) => setTimeout(r, runMs));
      return {} as RunResult;
    },
  };
  const s = await WatchSession.start({ runner, exercise, file, poll });
  const events: SessionEvent[] = [];
  s.subscribe((e) => events.push(e));
  return { s, runs: () => runs, events };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

test.each([
  ["in place (most editors)", () => writeFileSync(file, "v1")],
  ["write a temp file, rename it over (VS Code, JetBrains)", () => (writeFileSync(`${file}.tmp`, "v1"), renameSync(`${file}.tmp`, file))],
  ["move the old file away, write a new one (vim with backupcopy=no)", () => (renameSync(file, `${file}~`), writeFileSync(file, "v1"))],
])("a save %s is one run", async (_how, save) => {
  const { s, runs, events } = await session();
  save();
  await until(() => runs() === 1, "a run", 5_000, 10);
  await settle(300);
  expect(runs()).toBe(1);
  expect(events.filter((e) => e.type === "file-missing")).toEqual([]);
  await s.close();
});

test("ten saves 9 ms apart cause at most two runs", async () => {
  // A run as long as a real one: should the debounce fire mid-burst, the rest queue as one.
  const { s, runs } = await session(false, 300);
  // A busy machine may stretch a pause past the debounce, which may end a burst early: each
  // such pause may add a run, however long the machine took.
  let stretched = 0;
  for (let i = 0; i < 10; i++) {
    writeFileSync(file, `v${i}`);
    const paused = performance.now();
    await settle(9);
    if (i < 9 && performance.now() - paused >= SAVE_DEBOUNCE_MS) stretched++;
  }
  await until(() => runs() >= 1, "a run", 5_000, 10);
  await settle(1_000);
  expect(runs()).toBeGreaterThanOrEqual(1);
  expect(runs()).toBeLessThanOrEqual(2 + stretched);
  await s.close();
});

test("a save while a run is in flight is run next", async () => {
  const { s, runs } = await session(false, 300);
  s.rerun();
  await until(() => runs() === 1, "the first run", 5_000, 10);
  writeFileSync(file, "during");
  await settle(100);
  expect(runs()).toBe(1);
  await until(() => runs() === 2, "the queued run", 5_000, 10);
  await s.close();
});

test("--poll notices saves too", async () => {
  const { s, runs } = await session(true);
  await settle(300); // let the poller take its first look, as a person would before saving
  writeFileSync(file, "polled");
  await until(() => runs() === 1, "a run from polling", 10_000, 10);
  await s.close();
});
