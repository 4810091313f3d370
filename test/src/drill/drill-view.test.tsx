import { cleanup, render } from "ink-testing-library";
import { afterEach, expect, test } from "vitest";
import { bigText } from "../../../src/drill/big-clock.js";
import { drillCommandForKey } from "../../../src/drill/drill-keys.js";
import { drillResultsWindow } from "../../../src/drill/drill-lines-view.js";
import { drillReducer, initialDrillState, type DrillAction } from "../../../src/drill/drill-state.js";
import { DrillView } from "../../../src/drill/drill-view.js";
import { screenReducer, type ScreenAction } from "../../../src/screen/screen-state.js";
import { failed, fresh, NAMES, passed, result } from "../screen/fixtures.js";

afterEach(() => cleanup());

const targets = { seconds: 600, lines: 25 };
const drillAfter = (...actions: DrillAction[]) =>
  actions.reduce(
    drillReducer,
    initialDrillState({ exercise: { number: 1, title: "The tool-calling loop" }, attempt: 2, file: "/ws/drills/01-tool-loop.2.ts", given: "", openedAt: 0 }),
  );
const screenAfter = (...actions: ScreenAction[]) => actions.reduce(screenReducer, fresh({ file: "/ws/drills/01-tool-loop.2.ts" }));
const started: ScreenAction = { type: "run-started", exercise: "01-tool-loop", file: "/ws/drills/01-tool-loop.2.ts" };
const frame = (screen: ReturnType<typeof screenAfter>, drill: ReturnType<typeof drillAfter>, nowMs: number) =>
  render(
    <DrillView screen={screen} drill={drill} nowMs={nowMs} interactive previous={[{ exercise: 1, seconds: 200, passed: true }]} targets={targets} />,
  ).lastFrame()!;

test("before the first save: the clock already running from the drill's opening; the first failure explained; the locked keys", () => {
  const screen = screenAfter(started, { type: "run-finished", result: result([failed(NAMES[0]!), failed(NAMES[1]!)]) });
  expect(frame(screen, drillAfter(), 90_000)).toMatchInlineSnapshot(`
    "run 1 · 0 of 2 passed · 84 ms
    Drill 2 · exercise 1 · The tool-calling loop             target 10:00 · 25 lines
    /ws/drills/01-tool-loop.2.ts
    Target 25 lines: one for each line where a statement inside your functions
    starts (imports, types, signatures and braces are free).

      ▄█  ▄ ▀▀█ █▀█
       █  ▄ ▀▀█ █ █
      ▀▀▀   ▀▀▀ ▀▀▀

    Run 1: 0 of 2 passed

      ✘ adds two numbers (off-by-one bug)
      ✘ asks the model to echo the sum (no-echo bug)

    First failure: adds two numbers (off-by-one bug)
      Instead: expected 6 to be 5
      expected: 5
      received: 6
      This test guards against the off-by-one bug: Adds one too many, so every sum
      is wrong.

    h l 1 3 s locked (opening one marks the attempt peeked) · r rerun · q quit"
  `);
});

test("timing: the clock runs from the drill's opening, saves or not; green stops it and shows how the attempt compares", () => {
  const drill = drillAfter({ type: "saved", at: 10_000 });
  const running = screenAfter(started);
  expect(frame(running, drill, 85_000)).toContain("▄█  ▄ ▀▀█ █▀▀\n   █  ▄ █▀▀ ▀▀█"); // 1:25
  expect(frame(running, drill, 85_000)).toContain("q give up (recorded)");
  expect(frame(running, drillAfter(), 85_000)).toContain("▄█  ▄ ▀▀█ █▀▀\n   █  ▄ █▀▀ ▀▀█"); // no save yet: the same clock
  expect(frame(running, drillAfter(), 85_000)).toContain("r rerun · q quit"); // nothing to give up yet
  const green = drillAfter(
    { type: "saved", at: 10_000 },
    { type: "run-started", at: 10_050, version: "solved" },
    { type: "run-finished", at: 240_000, passed: true },
    { type: "measured", chars: 1_500, lines: 23 },
  );
  const screen = screenAfter(started, { type: "run-finished", result: result([passed(NAMES[0]!), passed(NAMES[1]!)]) });
  expect(frame(screen, green, 999_999)).toMatchInlineSnapshot(`
    "run 1 · all 2 passed · 84 ms
    Drill 2 · exercise 1 · The tool-calling loop             target 10:00 · 25 lines
    /ws/drills/01-tool-loop.2.ts

      █ █ ▄ █▀█ █▀█
      ▀▀█ ▄ █ █ █ █
        ▀   ▀▀▀ ▀▀▀

    Run 1: all 2 passed

      ✔ adds two numbers (off-by-one bug) 3 ms
      ✔ asks the model to echo the sum (no-echo bug) 3 ms

    ✔ Green in 4:00 · 23 lines · 1 run · no peeking
      Lines count where the statements inside your functions start: imports, types,
      top-level constants, signatures, braces and comments do not.
      Target: 10:00 met with 6:00 to spare; 25 lines met with 2 lines to spare.
      Personal best 3:20: this one was 0:40 slower.
      Last 1: 3:20.
      This one was 0:40 slower than the average of their green ones, 3:20.

    h hint · l lesson · 1 3 reference · s solution · r rerun · q quit"
  `);
});

test("green faster than the code can be typed: the attempt is told it is pasted, no personal best", () => {
  const pasted = drillAfter(
    { type: "run-started", at: 2_000, version: "pasted" },
    { type: "run-finished", at: 3_000, passed: true },
    { type: "measured", chars: 1_500, lines: 23 },
  );
  const screen = screenAfter(started, { type: "run-finished", result: result([passed(NAMES[0]!), passed(NAMES[1]!)]) });
  const shown = frame(screen, pasted, 999_999).replace(/\s+/g, " ");
  expect(shown).toContain("Pasted: green faster than its code can be typed, so it is recorded as pasted and is not a personal best (your best: 3:20).");
  expect(shown).not.toContain("Personal best 3:20");
});

test("the stopped clock shows the second the summary reports (80.6 s is 1:21 in both)", () => {
  const green = drillAfter(
    { type: "saved", at: 10_000 },
    { type: "run-started", at: 10_050, version: "solved" },
    { type: "run-finished", at: 80_600, passed: true },
    { type: "measured", chars: 0, lines: 8 },
  );
  const screen = screenAfter(started, { type: "run-finished", result: result([passed(NAMES[0]!), passed(NAMES[1]!)]) });
  const shown = frame(screen, green, 999_999);
  expect(shown).toContain("Green in 1:21");
  expect(shown).toContain(
    bigText("1:21")
      .map((row) => `  ${row}`)
      .join("\n"),
  );
});

test("closing: only the finished runs stay, for the report printed after", () => {
  const screen = screenAfter(started, { type: "run-finished", result: result([failed(NAMES[0]!)]) });
  expect(frame(screen, drillAfter({ type: "closed" }), 0).trimEnd()).toBe("run 1 · 0 of 1 passed · 84 ms");
});

test("at 80×24 the drill keeps its title and big clock on screen, with eight long failing tests and the rule before the first save", () => {
  const names = Array.from({ length: 8 }, (_, i) => `a behaviour the chapter names, told in a sentence long enough to wrap at eighty columns (bug-${i} bug)`);
  const screen = screenAfter(started, { type: "run-finished", result: result(names.map((name) => failed(name))) });
  const lines = frame(screen, drillAfter(), 0).split("\n").slice(screen.history.length);
  expect(lines.length).toBeLessThan(24);
  for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
  expect(lines[0]).toMatch(/^Drill 2 · exercise 1 · The tool-calling loop +target 10:00 · 25 lines$/);
  expect(lines.join("\n")).toContain(
    bigText("0:00")
      .map((row) => `  ${row}`)
      .join("\n"),
  );
  expect(lines.map((l) => l.trim()).join(" ")).toContain("Target 25 lines: one for each line where a statement inside your functions starts");
  expect(lines.map((l) => l.trim()).join(" ")).toContain(`First failure: ${names[0]}`);
});

test("at 80×24 the drill's results scroll with the lesson's keys, j down and k up, each frame under the clock and within the terminal", () => {
  const names = Array.from({ length: 14 }, (_, i) => `behaviour ${String(i + 1).padStart(2, "0")} of the drill (bug-${i} bug)`);
  const small = { columns: 80, rows: 24 };
  let screen = screenAfter({ type: "resized", size: small }, started, {
    type: "run-finished",
    result: result(names.map((name, i) => (i === 9 ? failed(name) : passed(name)))),
  });
  const drill = drillAfter();
  const window = drillResultsWindow({ screen, drill, interactive: true })!;
  expect(window.max).toBeGreaterThan(0);
  const seen = new Set<string>();
  for (const key of ["k", ...Array.from({ length: 14 }, () => "k"), ...Array.from({ length: 20 }, () => "j")]) {
    const command = drillCommandForKey(key, {}, drill, screen);
    expect(command?.kind).toBe("scroll-results");
    const now = drillResultsWindow({ screen, drill, interactive: true })!;
    screen = screenReducer(screen, { type: "results-scrolled", offset: Math.max(0, Math.min(now.max, now.offset + (command as { by: number }).by)) });
    const lines = frame(screen, drill, 0).split("\n").slice(screen.history.length);
    expect(lines.length).toBeLessThan(24);
    expect(lines[0]).toMatch(/^Drill 2 · exercise 1/);
    for (const name of names) if (lines.some((l) => l.includes(name))) seen.add(name);
  }
  expect(seen.size).toBe(names.length);
});
