import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { cleanup, render } from "ink-testing-library";
import { afterEach, expect, test } from "vitest";
import type { TestOutcome } from "../../../checker/model/result.js";
import { paneRows } from "../../../src/screen/screen-layout.js";
import { screenReducer, type ScreenAction, type ScreenState } from "../../../src/screen/screen-state.js";
import { ScreenView } from "../../../src/screen/screen-view.js";
import { CODE_CONTINUATION } from "../../../src/screen/wrap.js";
import { fresh, result } from "./fixtures.js";

afterEach(() => cleanup());

// Exercise 1 as the learner meets it: its real lesson, its SDK reference and its test names.
const exercise = resolve(import.meta.dirname, "../../../exercises/01-tool-loop");
const lesson = readFileSync(join(exercise, "lesson.md"), "utf8");
const tier3 = readFileSync(join(exercise, "reference/tier3.ts"), "utf8");
const testNames = [...readFileSync(join(exercise, "hidden.test.ts"), "utf8").matchAll(/\btest\("([^"]+)"/g)].map((m) => m[1]!);
const SMALL = { columns: 80, rows: 24 };

const after = (...actions: ScreenAction[]) => actions.reduce(screenReducer, fresh({ size: SMALL }));

/** The live part of the screen as an 80-column terminal shows it (finished-run lines above it left out). */
function live(state: ScreenState): string[] {
  const lines = render(<ScreenView state={state} elapsedMs={83_000} interactive />)
    .lastFrame()!
    .split("\n");
  return lines.slice(state.history.length);
}

/** What a small terminal must hold: every line within its width, the whole frame under its height, the title and clock on top. */
function expectFits(lines: string[], size = SMALL): void {
  expect(lines.length).toBeLessThan(size.rows);
  for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(size.columns);
  expect(lines[0]).toMatch(/^Exercise 1 · The tool-calling loop +1:23$/);
}

/** Pages through an open pane with the space key's step, collecting the text inside its border. */
function pageThrough(state: ScreenState): string[] {
  const seen: string[] = [];
  for (;;) {
    const lines = live(state);
    expectFits(lines);
    const inside = lines.filter((l) => l.startsWith("│ ")).map((l) => l.slice(2, -2).trimEnd());
    const footer = inside.pop()!;
    const [, from, to, total] = /lines (\d+)–(\d+) of (\d+)/.exec(footer)!.map(Number);
    seen.splice(from! - 1, to! - from! + 1, ...inside.slice(-(to! - from! + 1)));
    if (to === total) return seen;
    state = screenReducer(state, { type: "pane-scrolled", by: paneRows(state), height: paneRows(state) });
  }
}

/** The text with its code-continuation markers and all white space taken out: what must survive any wrapping. */
const ink = (lines: string[]) =>
  lines
    .map((l) => (l.startsWith(CODE_CONTINUATION) ? l.slice(CODE_CONTINUATION.length) : l))
    .join("")
    .replace(/\s+/g, "");
const words = (text: string) => text.split(/\s+/).filter((w) => w !== "");

test("the lesson at 80×24 wraps at the pane's width: every word is there, in order, and the title and clock stay on top", () => {
  const state = after({ type: "pane-opened", title: "Lesson: The tool-calling loop", text: lesson, kind: "markdown" });
  const shown = pageThrough(state);
  expect(ink(shown)).toBe(ink(lesson.split("\n")));
  expect(shown.some((line) => line.endsWith("…"))).toBe(false);
  // Prose is broken between words: the lesson's first paragraph comes back word for word.
  const paragraph = lesson.split("\n\n")[1]!.replace(/^## .*\n+/, "");
  expect(shown.join(" ")).toContain(words(paragraph).join(" "));
});

test("tier3.ts at 80×24: a code line too long for the pane goes on under a continuation marker, nothing lost", () => {
  const state = after({ type: "pane-opened", title: "Reference tier 3: the SDK version", text: tier3, kind: "code" });
  const shown = pageThrough(state);
  expect(ink(shown)).toBe(ink(tier3.split("\n")));
  expect(shown.filter((l) => !l.startsWith(CODE_CONTINUATION)).length).toBe(tier3.trimEnd().split("\n").length);
  expect(tier3.split("\n").some((l) => l.length > 76)).toBe(true); // the case this test is about exists
});

test("exercise 1's test rows keep their whole names, bug ids included: at 80×24 the failing one (the passed are counted), at 80×60 all", () => {
  const outcomes: TestOutcome[] = testNames.map((name, i) =>
    i === 1
      ? {
          name,
          state: "failed",
          ms: 2,
          failure: { message: "expected 5 to be 3 // Object.is equality", expected: "3", received: "5" },
          bug: { id: "split-results", summary: "Results travel in one user message each." },
        }
      : { name, state: "passed", ms: 3, failure: null, bug: null },
  );
  const state = after({ type: "run-started", exercise: "01", file: "/ws/01-adder.ts" }, { type: "run-finished", result: result(outcomes) });
  const lines = live(state);
  expectFits(lines);
  const text = lines.map((l) => l.trim()).join(" ");
  expect(text).toContain(`✔ ${testNames.length - 1} passed · ✘ 1 failed ✘ ${testNames[1]}`);
  expect(text).toContain("This test guards against the split-results bug: Results travel in one user message each.");
  // Tall enough for every row of exercise 1 (two lines a name at 80 columns), whose tests have grown past 12.
  const tall = { columns: 80, rows: 60 };
  const tallLines = live(screenReducer(state, { type: "resized", size: tall }));
  expectFits(tallLines, tall);
  const tallText = tallLines.map((l) => l.trim()).join(" ");
  for (const name of testNames) expect(tallText).toContain(name);
});

test("many long test names at 80×24: the passed ones are counted in a line, the failing ones kept whole, the header on top", () => {
  const names = Array.from(
    { length: 30 },
    (_, i) => `behaviour number ${i + 1} that the chapter describes in a rather long sentence of its own (bug-${i + 1} bug)`,
  );
  const outcomes: TestOutcome[] = names.map((name, i) =>
    i % 10 === 3 ? { name, state: "failed", ms: 1, failure: { message: "no" }, bug: null } : { name, state: "passed", ms: 1, failure: null, bug: null },
  );
  const lines = live(after({ type: "run-started", exercise: "01", file: "/ws/01-adder.ts" }, { type: "run-finished", result: result(outcomes) }));
  expectFits(lines);
  const text = lines.map((l) => l.trim()).join(" ");
  expect(text).toContain("✔ 27 passed · ✘ 3 failed");
  expect(text).toContain(names[3]);
  expect(text).toContain(`First failure: ${names[3]}`);
});

test("a resize reflows the open pane: wider lines at 120 columns, the 80-column layout again after", () => {
  const open = after({ type: "pane-opened", title: "Lesson", text: lesson, kind: "markdown" });
  const wide = screenReducer(open, { type: "resized", size: { columns: 120, rows: 40 } });
  expect(wide.pane!.lines.length).toBeLessThan(open.pane!.lines.length);
  expect(Math.max(...wide.pane!.lines.map((l) => [...l].length))).toBeGreaterThan(80);
  expect(Math.max(...wide.pane!.lines.map((l) => [...l].length))).toBeLessThanOrEqual(116);
  const back = screenReducer(wide, { type: "resized", size: SMALL });
  expect(back.pane!.lines).toEqual(open.pane!.lines);
  expectFits(live(back));
});

test("a matcher's text at 80×24 comes under the test's own sentence: the assertion's sentence leads, the raw text is what it found instead", () => {
  const split = testNames.findIndex((n) => n.endsWith("(split-results bug)"));
  const cap = testNames.findIndex((n) => n.endsWith("(no-default-cap bug)"));
  // Exercise 1's real assertions, as vitest words them: one with a sentence of its own, one bare.
  const withSentence = "user messages that carried results back: expected [ { role: 'user', …(1) }, …(5) ] to have a length of 2 but got 6";
  const bare = "expected [] to have a length of 12 but got +0";
  const failing = (i: number, message: string, expected: string, received: string): TestOutcome => ({
    name: testNames[i]!,
    state: "failed",
    ms: 2,
    failure: { message, expected, received },
    bug: { id: bugOf(testNames[i]!), summary: "What the mistake costs." },
  });
  for (const [i, message, said] of [
    [
      split,
      withSentence,
      ["Checked: user messages that carried results back", "Instead: expected [ { role: 'user', …(1) }, …(5) ] to have a length of 2 but got 6"],
    ],
    [cap, bare, ["Instead: expected [] to have a length of 12 but got +0"]],
  ] as const) {
    const outcomes = testNames.map(
      (name, j): TestOutcome => (j === i ? failing(i, message, "2", "6") : { name, state: "passed", ms: 3, failure: null, bug: null }),
    );
    const lines = live(after({ type: "run-started", exercise: "01", file: "/ws/01-tool-loop.ts" }, { type: "run-finished", result: result(outcomes) }));
    expectFits(lines);
    const text = lines.map((l) => l.trim()).join(" ");
    const heading = text.indexOf(`First failure: ${testNames[i]}`);
    expect(heading).toBeGreaterThan(-1);
    // In reading order: the test's sentence, then each part of what the assertion said, then the bug it guards against.
    const at = said.map((part) => text.indexOf(part, heading));
    expect(at.every((n) => n > heading)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(text.indexOf(`This test guards against the ${bugOf(testNames[i]!)} bug: What the mistake costs.`)).toBeGreaterThan(at.at(-1)!);
    // The labels start their lines, indented under the heading, so they are read as labels.
    for (const part of said) expect(lines.some((l) => l.startsWith(`  ${part.split(" ")[0]} `))).toBe(true);
  }
});

const bugOf = (name: string) => /\(([a-z0-9-]+) bug\)$/.exec(name)![1]!;
