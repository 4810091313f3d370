import { render } from "ink-testing-library";
import { afterEach, expect, test } from "vitest";
import { cleanup } from "ink-testing-library";
import { ScreenView } from "../../../src/screen/screen-view.js";
import { screenReducer, type ScreenAction, type ScreenState } from "../../../src/screen/screen-state.js";
import { failed, fresh, NAMES, passed, result, SYNTAX, TIMEOUT } from "./fixtures.js";

afterEach(() => cleanup());

const started: ScreenAction = { type: "run-started", exercise: "01-adder", file: "/ws/01-adder.ts" };
const collected: ScreenAction = { type: "tests-collected", names: NAMES };
const after = (...actions: ScreenAction[]) => actions.reduce(screenReducer, fresh());
const frame = (state: ScreenState, interactive = true) => render(<ScreenView state={state} elapsedMs={83_000} interactive={interactive} />).lastFrame()!;

test("pending: every test listed, none run yet", () => {
  expect(frame(after(started, collected))).toMatchInlineSnapshot(`
    "Exercise 1 · The tool-calling loop                                          1:23
    /ws/01-adder.ts
    Running the hidden tests…

      ○ adds two numbers (off-by-one bug)
      ○ asks the model to echo the sum (no-echo bug)

    h hint (0/3) · 1 3 reference · l lesson · r rerun · q quit"
  `);
});

test("running: one row passed, one running, and a save during the run is acknowledged", () => {
  const state = after(started, collected, { type: "test-finished", test: passed(NAMES[0]!) }, { type: "test-started", name: NAMES[1]! }, { type: "save-seen" });
  expect(frame(state)).toMatchInlineSnapshot(`
    "Exercise 1 · The tool-calling loop                                          1:23
    /ws/01-adder.ts
    Running the hidden tests… you saved again, so another run follows.

      ✔ adds two numbers (off-by-one bug) 3 ms
      ● asks the model to echo the sum (no-echo bug)

    h hint (0/3) · 1 3 reference · l lesson · r rerun · q quit"
  `);
});

test("failed: the first failure explained with the test's words, expected vs received, and the bug", () => {
  const state = after(started, { type: "run-finished", result: result([passed(NAMES[0]!), failed(NAMES[1]!)]) });
  expect(frame(state)).toMatchInlineSnapshot(`
    "run 1 · 1 of 2 passed · 84 ms
    Exercise 1 · The tool-calling loop                                          1:23
    /ws/01-adder.ts
    Run 1: 1 of 2 passed

      ✔ adds two numbers (off-by-one bug) 3 ms
      ✘ asks the model to echo the sum (no-echo bug)

    First failure: asks the model to echo the sum (no-echo bug)
      Instead: expected 6 to be 5
      expected: 5
      received: 6
      This test guards against the off-by-one bug: Adds one too many, so every sum
      is wrong.

    h hint (0/3) · 1 3 reference · l lesson · r rerun · q quit"
  `);
});

test("the last explanation stays on screen, labelled, while the next run goes", () => {
  const state = after(started, { type: "run-finished", result: result([failed(NAMES[0]!)]) }, started);
  const text = frame(state);
  expect(text).toContain("From the last run:\nFirst failure: adds two numbers (off-by-one bug)");
  expect(text).toContain("  ○ adds two numbers (off-by-one bug)");
});

test("syntax error: file:line:col, the code line and a caret under the column", () => {
  const state = after(started, collected, { type: "file-error", error: SYNTAX }, { type: "run-finished", result: result([], SYNTAX, "error") });
  expect(frame(state)).toMatchInlineSnapshot(`
    "run 1 · syntax error · 84 ms
    Exercise 1 · The tool-calling loop                                          1:23
    /ws/01-adder.ts
    Run 1: syntax error

      – adds two numbers (off-by-one bug)
      – asks the model to echo the sum (no-echo bug)

    Syntax error in /ws/01-adder.ts:2:14: Unexpected token
      2 |   return a + ;
        |              ^

    h hint (0/3) · 1 3 reference · l lesson · r rerun · q quit"
  `);
});

test("timeout: said plainly, and the screen keeps watching", () => {
  const notRun = NAMES.map((name) => ({ name, state: "not-run" as const, ms: 0, failure: { message: "Not run: the run was stopped after 10 s." }, bug: null }));
  const state = after(started, collected, { type: "file-error", error: TIMEOUT }, { type: "run-finished", result: result(notRun, TIMEOUT, "timeout") });
  expect(frame(state)).toMatchInlineSnapshot(`
    "run 1 · stopped: it ran past the time limit · 84 ms
    Exercise 1 · The tool-calling loop                                          1:23
    /ws/01-adder.ts
    Run 1: stopped: it ran past the time limit

      – adds two numbers (off-by-one bug)
      – asks the model to echo the sum (no-echo bug)

    The run did not finish in 10 s: look for a loop that never ends or a promise
    that never settles.
    Your file is still being watched: save again to rerun.

    h hint (0/3) · 1 3 reference · l lesson · r rerun · q quit"
  `);
});

test("all passed: said plainly, with the solution and the next exercise offered", () => {
  const state = after(started, { type: "run-finished", result: result([passed(NAMES[0]!), passed(NAMES[1]!, 12)]) });
  expect(frame(state)).toMatchInlineSnapshot(`
    "run 1 · all 2 passed · 84 ms
    Exercise 1 · The tool-calling loop                                          1:23
    /ws/01-adder.ts
    Run 1: all 2 passed

      ✔ adds two numbers (off-by-one bug) 3 ms
      ✔ asks the model to echo the sum (no-echo bug) 12 ms

    ✔ All 2 tests pass: exercise 1 is solved, and your progress records it.
      Compare with the reference solution: lab solution 1
      Next: press n for exercise 2, Retry with backoff.

    h hint (0/3) · 1 3 reference · l lesson · r rerun · n next · q quit"
  `);
});

test("all passed on the last exercise says it was the last", () => {
  const state = screenReducer(fresh({ next: null }), { type: "run-finished", result: result([passed(NAMES[0]!)]) });
  expect(frame(state)).toContain("  That was the last exercise.");
  expect(frame(state)).not.toContain("n next");
});

test("a pane shows its lines with where you are, and the rows give way to it", () => {
  const text = Array.from({ length: 30 }, (_, i) => `step ${i + 1}`).join("\n");
  const state = after(
    started,
    collected,
    { type: "pane-opened", title: "Reference tier 1: pseudocode", text, kind: "code" },
    { type: "pane-scrolled", by: 2, height: 13 },
  );
  const shown = frame(state);
  expect(shown).toContain("│ Reference tier 1: pseudocode");
  expect(shown).toContain("│ step 3");
  expect(shown).toContain("│ step 15");
  expect(shown).not.toContain("step 16");
  expect(shown).toContain("lines 3–15 of 30 · ↑↓ scroll · space page · esc close");
  expect(shown).not.toContain("adds two numbers");
  expect(shown.split("\n").at(-1)).toBe("↑↓ scroll · esc close · q quit");
});

test("the latest hint, and a word when there are no more", () => {
  const state = after({ type: "hint-requested" }, { type: "hint-requested" });
  expect(frame(state)).toContain("Hint 2 of 3: Check stop_reason first.");
  expect(frame(state)).not.toContain("Hint 1 of 3");
  const over = after(...Array.from({ length: 4 }, () => ({ type: "hint-requested" }) as const));
  expect(frame(over)).toContain("Hint 3 of 3: Wrap each dispatch in try/catch.\nThat was the last hint; the reference tiers go further.");
});

test("notices: progress warnings, a silent watcher, a deleted file, a failed watcher, a runner crash", () => {
  const state = after(
    { type: "notice", text: "Your progress cannot be saved." },
    { type: "watcher-silent" },
    { type: "file-missing", file: "/ws/01-adder.ts" },
    { type: "watch-error", message: "EMFILE" },
    { type: "run-crashed", message: "boom" },
  );
  const shown = frame(state).replace(/\s+/g, " "); // long notices wrap at the terminal's width
  expect(shown).toContain("Your progress cannot be saved.");
  expect(shown).toContain("Your saves are not reaching lab as file events (common on network and VM folders); quit and run lab start 1 --poll.");
  expect(shown).toContain("Your file /ws/01-adder.ts is gone: save it again, or run lab reset 1 to start from the stub.");
  expect(shown).toContain("Watching your file failed (EMFILE); press r to rerun by hand.");
  expect(shown).toContain("The test runner failed, not your code: boom.");
});

test("without working keys there is no key bar", () => {
  expect(frame(after(started, collected), false)).not.toContain("q quit");
});

test("a save during a run: the screen says the run is stopped for it, and the history keeps a line for the stopped run", () => {
  const stopping = after(started, collected, { type: "save-seen" }, { type: "run-stopping" });
  expect(frame(stopping)).toContain("You saved during the run: it is stopped, and your new save runs now.");
  const next = after(started, collected, { type: "save-seen" }, { type: "run-stopping" }, { type: "run-stopped" }, started);
  const shown = frame(next);
  expect(shown.split("\n")[0]).toBe("run 1 · stopped for your new save");
  expect(shown).toContain("Running the hidden tests…");
  expect(shown).not.toContain("it is stopped");
});

test("type errors: a yellow warning beside the verdict, three listed and the rest counted, the verdict untouched", () => {
  const errors = Array.from({ length: 5 }, (_, i) => ({ line: i + 10, column: 7, code: 2322, message: "Type 'string' is not assignable to type 'number'." }));
  const state = after(started, { type: "run-finished", result: result([passed(NAMES[0]!), passed(NAMES[1]!)]) }, { type: "type-errors", errors });
  const shown = frame(state);
  expect(shown).toContain("Run 1: all 2 passed");
  expect(shown).toContain("5 type errors in your file (a warning: the tests ran anyway):\n  10:7 Type 'string' is not assignable to type 'number'.\n  11:7");
  expect(shown).toContain("  … and 2 more (your editor shows them all)");
  expect(shown).not.toContain("13:7");
  const fixed = screenReducer(state, { type: "type-errors", errors: [] });
  expect(frame(fixed)).not.toContain("type error");
});
