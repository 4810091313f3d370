import { join, resolve } from "node:path";
import { afterEach, expect, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import type { TestOutcome } from "../../../checker/model/result.js";
import { ProgressStore } from "../../../src/progress/progress-store.js";
import { importScreen } from "../../../src/screen/import-screen.js";
import { SCREEN_MESSAGES } from "../../../src/screen/screen-messages.js";
import { initialScreenState, screenReducer, type ScreenAction, type ScreenState } from "../../../src/screen/screen-state.js";
import { createScreenStore } from "../../../src/screen/screen-store.js";
import type { SessionListener } from "../../../src/watch/watch-session.js";
import { until } from "../../support/until.js";
import { tempDir } from "../../support/temp-dir.js";
import { fresh, result, SYNTAX } from "./fixtures.js";
import { fakeIo } from "./streams.js";

// Everything that brings in Ink is loaded as `lab start` loads it, so live frames are drawn even where CI is set.
const { cleanup, render } = await importScreen(() => import("ink-testing-library"));
const { ScreenView } = await importScreen(() => import("../../../src/screen/screen-view.js"));
const { runScreen } = await importScreen(() => import("../../../src/screen/run-screen.js"));
const { OUTPUT_LINES_SHOWN } = await importScreen(() => import("../../../src/screen/results-window.js"));
const { resultsWindow } = await importScreen(() => import("../../../src/screen/screen-layout.js"));

afterEach(() => cleanup());

const SMALL = { columns: 80, rows: 24 };
const NAMES = Array.from({ length: 23 }, (_, i) => `behaviour ${String(i + 1).padStart(2, "0")} that the hidden tests check (bug-${i + 1} bug)`);
const FAILING = new Set([4, 11, 21]);

/** Exercise-sized results: 23 tests, three failing, some of them printing as they ran. */
function outcomes(output: (i: number) => string | undefined = () => undefined): TestOutcome[] {
  return NAMES.map((name, i) => {
    const printed = output(i);
    const base: TestOutcome = FAILING.has(i)
      ? { name, state: "failed", ms: 2, failure: { message: "expected NaN to be +0 // Object.is equality" }, bug: null }
      : { name, state: "passed", ms: 3, failure: null, bug: null };
    return printed === undefined ? base : { ...base, output: printed };
  });
}

const finished = (tests: TestOutcome[]): ScreenState =>
  [{ type: "run-started", exercise: "05", file: "/ws/05.ts" } as ScreenAction, { type: "run-finished", result: result(tests) } as ScreenAction].reduce(
    screenReducer,
    fresh({ size: SMALL }),
  );

/** The live part as an 80×24 terminal shows it, finished-run lines above it left out. */
function live(state: ScreenState): string[] {
  return render(<ScreenView state={state} elapsedMs={83_000} interactive />)
    .lastFrame()!
    .split("\n")
    .slice(state.history.length);
}

function expectFits(lines: string[]): void {
  expect(lines.length).toBeLessThan(SMALL.rows);
  for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(SMALL.columns);
  expect(lines[0]).toMatch(/^Exercise 1 · The tool-calling loop +1:23$/);
}

const scrolledTo = (state: ScreenState, offset: number) => screenReducer(state, { type: "results-scrolled", offset });

test("at 80×24 the results that do not fit are a window: counted by state, the first failure at its top, and where it stands", () => {
  const state = finished(outcomes());
  const lines = live(state);
  expectFits(lines);
  const text = lines.join("\n");
  expect(text).toContain("✔ 20 passed · ✘ 3 failed");
  const window = resultsWindow(state)!;
  expect(window.offset).toBe(4);
  expect(lines.find((l) => l.includes("✘") && l.includes("behaviour"))).toContain(NAMES[4]);
  expect(text).toMatch(/lines 5–\d+ of 23 · ↑↓ scroll · space page/);
  expect(text).not.toContain(NAMES[0]);
});

test("every row can be scrolled into view, first to last, and each frame still fits", () => {
  const state = finished(outcomes());
  const window = resultsWindow(state)!;
  const seen = new Set<string>();
  for (let offset = 0; ; offset = Math.min(window.max, offset + window.height)) {
    const lines = live(scrolledTo(state, offset));
    expectFits(lines);
    for (const name of NAMES) if (lines.some((l) => l.includes(name))) seen.add(name);
    if (offset === window.max) break;
  }
  expect([...seen].sort()).toEqual([...NAMES].sort());
  expect(live(scrolledTo(state, window.max)).join("\n")).toContain(`lines ${window.max + 1}–23 of 23`);
});

test("what a test printed shows under its own row once o is pressed, capped and marked when cut", () => {
  const printed = (i: number) =>
    i === 4 ? "DEBUG hitRate NaN\nDEBUG hits 0 misses 0\n" : i === 11 ? `${Array.from({ length: 30 }, (_, n) => `line ${n + 1}`).join("\n")}\n` : undefined;
  const state = finished(outcomes(printed));
  const hidden = live(state).join("\n");
  expect(hidden).not.toContain("DEBUG");
  expect(hidden).toContain(SCREEN_MESSAGES.outputKey(false));
  const shown = screenReducer(state, { type: "output-toggled" });
  const lines = live(shown);
  expectFits(lines);
  const row = lines.findIndex((l) => l.includes(NAMES[4]!));
  expect(lines.slice(row + 1, row + 3)).toEqual(["    │ DEBUG hitRate NaN", "    │ DEBUG hits 0 misses 0"]);
  expect(lines.join("\n")).toContain(SCREEN_MESSAGES.outputKey(true));
  // The long one: its first lines, then how many more there are, found by scrolling to it.
  const window = resultsWindow(shown)!;
  const frames = Array.from({ length: window.max + 1 }, (_, offset) => live(scrolledTo(shown, offset)).join("\n"));
  const long = frames.find((f) => f.includes(`│ ${SCREEN_MESSAGES.outputCut(30 - OUTPUT_LINES_SHOWN)}`));
  expect(long).toBeDefined();
  expect(frames.some((f) => f.includes(`│ line ${OUTPUT_LINES_SHOWN}`))).toBe(true);
  expect(frames.some((f) => f.includes(`│ line ${OUTPUT_LINES_SHOWN + 1}`))).toBe(false);
  expect(SCREEN_MESSAGES.outputCut(18)).toBe("… 18 more lines printed: lab check --json has all of it");
});

test("with no output from any test there is no o key", () => {
  expect(live(finished(outcomes())).join("\n")).not.toContain("output");
});

test("a syntax error shows only the syntax error: the type checker's word on the same file is left out", () => {
  const state = [
    { type: "run-started", exercise: "05", file: "/ws/05.ts" } as ScreenAction,
    { type: "run-finished", result: result([], SYNTAX) } as ScreenAction,
    { type: "type-errors", errors: [{ line: 2, column: 14, message: "Expression expected." }] } as ScreenAction,
  ].reduce(screenReducer, fresh({ size: SMALL }));
  const text = live(state).join("\n");
  expect(text).toContain(SYNTAX.message);
  expect(text).not.toContain("type error");
  expect(text).not.toContain("Expression expected.");
});

// The keys, through the live screen as `lab start` runs it.
const fixtures = resolve(import.meta.dirname, "../../fixtures/lab");
const exercise = loadExercises(join(fixtures, "exercises"), join(fixtures, "solutions"))[0]!;

test("keys on the live screen: j and space scroll the results as they scroll a lesson, k and b go back, o toggles the output", async () => {
  const io = fakeIo();
  io.stdout.columns = 80;
  io.stdout.rows = 24;
  const listeners = new Set<SessionListener>();
  const session = { subscribe: (l: SessionListener) => (listeners.add(l), () => void listeners.delete(l)), rerun: () => {} };
  const store = createScreenStore(initialScreenState({ exercise, file: join(tempDir("keys"), exercise.fileName), size: SMALL }));
  const progress = new ProgressStore(tempDir("keys"), () => {});
  const exit = runScreen({ io, exercise, session, store, progress, elapsed: () => 0 });
  await until(() => listeners.size > 0, "the screen listening");
  for (const l of listeners) l({ type: "run-started", exercise: exercise.id, file: "/ws/f.ts" });
  for (const l of listeners) l({ type: "run-finished", result: result(outcomes((i) => (i === 4 ? "DEBUG one\n" : undefined))) });
  await until(() => io.stdout.lastFrame().includes("lines 5–"), "the results window at the first failure");
  const start = resultsWindow(store.getState())!;
  io.stdin.write("j");
  await until(() => store.getState().resultsOffset === start.offset + 1, "one line down");
  const paged = Math.min(start.max, start.offset + 1 + start.height);
  io.stdin.write(" ");
  await until(() => store.getState().resultsOffset === paged, "a page down");
  io.stdin.write("b");
  await until(() => store.getState().resultsOffset === Math.max(0, paged - start.height), "a page up");
  io.stdin.write("k");
  await until(() => store.getState().resultsOffset === Math.max(0, paged - start.height - 1), "one line up");
  io.stdin.write("o");
  await until(() => io.stdout.lastFrame().includes("│ DEBUG one"), "the output under its row");
  io.stdin.write("o");
  await until(() => !io.stdout.lastFrame().includes("│ DEBUG one"), "the output hidden again");
  io.stdin.write("q");
  await expect(exit).resolves.toBe("quit");
});
