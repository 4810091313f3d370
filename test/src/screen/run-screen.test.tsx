import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeEach, describe, expect, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import { labPaths } from "../../../checker/paths.js";
import { SCREEN_MESSAGES } from "../../../src/screen/screen-messages.js";
import { ProgressStore } from "../../../src/progress/progress-store.js";
import { importScreen } from "../../../src/screen/import-screen.js";
import { initialScreenState } from "../../../src/screen/screen-state.js";
import { createScreenStore } from "../../../src/screen/screen-store.js";
import type { SessionListener } from "../../../src/watch/watch-session.js";
import { tempDir } from "../../support/temp-dir.js";
import { passed, result } from "./fixtures.js";
import { fakeIo } from "./streams.js";
import { until } from "../../support/until.js";

// Loaded as `lab start` loads it, so Ink draws live frames even where CI is set.
const { runScreen } = await importScreen(() => import("../../../src/screen/run-screen.js"));
const fixtures = resolve(import.meta.dirname, "../../fixtures/lab");
const exercise = loadExercises(join(fixtures, "exercises"), join(fixtures, "solutions"))[0]!;
let workspace: string;

beforeEach(() => void (workspace = tempDir("screen")));

function setUp(tty = true) {
  const io = fakeIo({ tty });
  const listeners = new Set<SessionListener>();
  let reruns = 0;
  const session = {
    subscribe: (l: SessionListener) => (listeners.add(l), () => void listeners.delete(l)),
    rerun: () => void reruns++,
  };
  const store = createScreenStore(initialScreenState({ exercise, file: join(workspace, exercise.fileName), next: { number: 2, title: "Next one" } }));
  const progress = new ProgressStore(workspace, (s) => store.dispatch({ type: "notice", text: s }));
  const exit = runScreen({ io, exercise, session, store, progress, elapsed: () => 0 });
  const emit: SessionListener = (e) => listeners.forEach((l) => l(e));
  const shows = (text: string) => until(() => io.stdout.lastFrame().includes(text), `the screen shows "${text}"`);
  return {
    io,
    exit,
    emit,
    shows,
    store,
    reruns: () => reruns,
    listeners,
    progressPath: progress.file,
    progressFile: () => JSON.parse(readFileSync(progress.file, "utf8")),
  };
}

test("the first run starts at once; r reruns; q quits and gives the terminal back", async () => {
  const { io, exit, reruns, shows, listeners } = setUp();
  await shows("q quit");
  expect(reruns()).toBe(1);
  io.stdin.write("r");
  await until(() => reruns() === 2, "a rerun");
  io.stdin.write("q");
  await expect(exit).resolves.toBe("quit");
  expect(io.stdin.rawMode.at(0)).toBe(true);
  expect(io.stdin.rawMode.at(-1)).toBe(false);
  expect(listeners.size).toBe(0);
});

test("h shows the next hint and progress remembers how many were seen", async () => {
  const { io, exit, shows, progressFile } = setUp();
  await shows("q quit");
  io.stdin.write("h");
  await shows(`Hint 1 of 2: ${exercise.hints[0]}`);
  io.stdin.write("h");
  await shows(`Hint 2 of 2: ${exercise.hints[1]}`);
  expect(progressFile().exercises[exercise.id].hintsShown).toBe(2);
  io.stdin.write("q");
  await exit;
});

test("1 opens the tier 1 reference and 1 again closes it; l opens the lesson, escape closes it", async () => {
  const { io, exit, shows, store } = setUp();
  await shows("q quit");
  io.stdin.write("1");
  await shows("Reference tier 1: pseudocode");
  expect(io.stdout.lastFrame()).toContain(readFileSync(exercise.references[1]!, "utf8").split("\n")[0]!);
  io.stdin.write("1");
  await until(() => store.getState().pane === null, "the pane closes");
  io.stdin.write("l");
  await shows(`Lesson: ${exercise.title}`);
  io.stdin.write("\u001B");
  await until(() => store.getState().pane === null, "escape closes the pane");
  io.stdin.write("q");
  await exit;
});

test("events reach the screen; an all-green run is recorded and n moves on", async () => {
  const { io, exit, emit, shows, progressFile, progressPath } = setUp();
  await shows("q quit");
  io.stdin.write("n");
  emit({ type: "run-started", exercise: exercise.id, file: "f" });
  emit({ type: "run-finished", result: result([passed("adds two numbers (off-by-one bug)")]) });
  await shows("n next");
  await until(() => existsSync(progressPath) && progressFile().exercises[exercise.id]?.passedAt !== undefined, "the pass recorded, just after its frame");
  expect(progressFile().exercises[exercise.id].passedAt).toEqual(expect.any(String));
  io.stdin.write("n");
  await expect(exit).resolves.toBe("next");
});

test("without raw mode there is no key handling and no raw-mode error; a signal still quits", async () => {
  const before = process.listenerCount("SIGHUP");
  const { io, exit, shows } = setUp(false);
  await shows("Exercise 1");
  expect(io.stdout.lastFrame()).not.toContain("q quit");
  expect(io.stdin.rawMode).toEqual([]);
  expect(process.listenerCount("SIGHUP")).toBe(before + 1);
  process.emit("SIGHUP");
  await expect(exit).resolves.toBe("quit");
  expect(process.listenerCount("SIGHUP")).toBe(before);
  expect(io.stderr.frames.join("")).toBe("");
});

test("a finished run's rows are drawn before its progress is written: the file write is not on the way from results to rows", async () => {
  const { io, exit, emit, shows, progressFile, progressPath } = setUp();
  await shows("q quit");
  const recorded = () => existsSync(progressPath) && progressFile().exercises[exercise.id]?.lastRun !== undefined;
  let recordedAtFrame: boolean | null = null;
  const write = io.stdout.write;
  io.stdout.write = (frame: string) => {
    if (recordedAtFrame === null && frame.includes("Run 1:")) recordedAtFrame = recorded();
    return write(frame);
  };
  emit({ type: "run-started", exercise: exercise.id, file: "f" });
  emit({ type: "run-finished", result: result([passed("adds two numbers (off-by-one bug)")]) });
  await shows("Run 1:");
  expect(recordedAtFrame).toBe(false);
  await until(recorded, "the run recorded in progress");
  io.stdin.write("q");
  await exit;
});

describe("tier 3 is a peek before a pass", () => {
  const real = loadExercises(labPaths().exercises, labPaths().solutions).find((e) => e.number === 1)!;

  function realScreen(passedAt?: string) {
    const io = fakeIo();
    const store = createScreenStore(initialScreenState({ exercise: real, file: join(workspace, real.fileName) }));
    const progress = new ProgressStore(workspace, () => {});
    if (passedAt) progress.update(real.id, (record) => void (record.passedAt = passedAt));
    const session = { subscribe: () => () => {}, rerun: () => {} };
    const exit = runScreen({ io, exercise: real, session, store, progress, elapsed: () => 0 });
    const flat = () => io.stdout.lastFrame().replace(/\s+/g, " ");
    const shows = (text: string) => until(() => flat().includes(text), `the screen shows "${text}"`);
    const recorded = () => new ProgressStore(workspace, () => {}).exercise(real.id).tier3ForcedAt;
    return { io, store, exit, shows, flat, recorded };
  }

  test("3 asks first; any other key goes back and records nothing; y opens it and records it; it never asks again", async () => {
    const { io, store, exit, shows, flat, recorded } = realScreen();
    await shows("q quit");
    io.stdin.write("3");
    await shows(SCREEN_MESSAGES.peekAsk(3, 1));
    await shows(SCREEN_MESSAGES.peekKeys);
    io.stdin.write("n");
    await until(() => !flat().includes("Tier 3 is the whole solution"), "the question gone");
    expect(store.getState().pane).toBeNull();
    expect(recorded()).toBeUndefined();
    io.stdin.write("3");
    await shows(SCREEN_MESSAGES.peekAsk(3, 1));
    io.stdin.write("y");
    await shows("Reference tier 3: the SDK, commented");
    expect(recorded()).toEqual(expect.any(String));
    io.stdin.write("3"); // closes it
    await until(() => store.getState().pane === null, "the pane closed");
    io.stdin.write("3"); // asked once: opens at once now
    await shows("Reference tier 3: the SDK, commented");
    expect(flat()).not.toContain("Tier 3 is the whole solution");
    io.stdin.write("q");
    await exit;
  });

  test("after a pass, 3 opens tier 3 without asking and records no peek; tiers 1 and 2 never ask", async () => {
    const { io, exit, shows, flat, recorded } = realScreen("2026-03-01T10:00:00.000Z");
    await shows("q quit");
    io.stdin.write("1");
    await shows("Reference tier 1: pseudocode");
    io.stdin.write("3");
    await shows("Reference tier 3: the SDK, commented");
    expect(flat()).not.toContain("Tier 3 is the whole solution");
    expect(recorded()).toBeUndefined();
    io.stdin.write("q");
    await exit;
  });
});
