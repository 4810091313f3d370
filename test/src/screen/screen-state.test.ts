import { describe, expect, test } from "vitest";
import { initialScreenState, runSummary, screenReducer, type ScreenAction, type ScreenState } from "../../../src/screen/screen-state.js";
import { statusLine } from "../../../src/screen/screen-parts.js";
import { EXERCISE, failed, fresh, NAMES, passed, result, SYNTAX, TIMEOUT } from "./fixtures.js";

const skipped = (name: string) => ({
  ...passed(name),
  state: "skipped" as const,
  note: "Skipped live: only the scripted provider can refuse with empty content, which this test checks.",
});

const run = (state: ScreenState, ...actions: ScreenAction[]) => actions.reduce(screenReducer, state);
const started: ScreenAction = { type: "run-started", exercise: "01-adder", file: "/ws/01-adder.ts" };

describe("run events", () => {
  test("run-started counts the run, marks every known row pending and clears the last run's file error", () => {
    const before = fresh({ rows: [{ name: NAMES[0]!, state: "failed", ms: 2 }], runError: TIMEOUT, queued: true, crash: "x", fileMissing: true });
    const after = screenReducer(before, started);
    expect(after).toMatchObject({ phase: "running", runs: 1, queued: false, runError: null, crash: null, fileMissing: false });
    expect(after.rows).toEqual([{ name: NAMES[0], state: "pending" }]);
  });

  test("tests-collected lists one pending row per test, in order", () => {
    const after = run(fresh(), started, { type: "tests-collected", names: NAMES });
    expect(after.rows).toEqual(NAMES.map((name) => ({ name, state: "pending" })));
  });

  test("test-started marks that row running, adding it when it was not collected", () => {
    const after = run(
      fresh(),
      started,
      { type: "tests-collected", names: [NAMES[0]!] },
      { type: "test-started", name: NAMES[0]! },
      { type: "test-started", name: "late" },
    );
    expect(after.rows).toEqual([
      { name: NAMES[0], state: "running" },
      { name: "late", state: "running" },
    ]);
  });

  test("test-finished puts the outcome's state and time on its row", () => {
    const after = run(fresh(), started, { type: "tests-collected", names: NAMES }, { type: "test-finished", test: failed(NAMES[1]!) });
    expect(after.rows).toEqual([
      { name: NAMES[0], state: "pending" },
      { name: NAMES[1], state: "failed", ms: 2 },
    ]);
  });

  test("file-error is held until the run finishes", () => {
    const after = run(fresh(), started, { type: "file-error", error: SYNTAX });
    expect(after.runError).toEqual(SYNTAX);
    expect(after.last).toBeNull();
  });

  test("run-finished keeps the result, takes its rows and writes one history line", () => {
    const finished = result([passed(NAMES[0]!), failed(NAMES[1]!)]);
    const after = run(fresh(), started, { type: "run-finished", result: finished });
    expect(after).toMatchObject({ phase: "idle", last: finished, runError: null });
    expect(after.rows.map((r) => r.state)).toEqual(["passed", "failed"]);
    expect(after.history).toEqual([{ id: 1, text: "run 1 · 1 of 2 passed · 84 ms" }]);
  });

  test("a run with no tests (a syntax error) keeps the known rows, marked not run", () => {
    const first = run(fresh(), started, { type: "run-finished", result: result([passed(NAMES[0]!)]) });
    const after = run(first, started, { type: "file-error", error: SYNTAX }, { type: "run-finished", result: result([], SYNTAX, "error") });
    expect(after.rows).toEqual([{ name: NAMES[0], state: "not-run" }]);
    expect(after.history.at(-1)).toEqual({ id: 2, text: "run 2 · syntax error · 84 ms" });
  });
});

describe("session events", () => {
  test("save-seen during a run queues another run; when idle it changes nothing", () => {
    expect(run(fresh(), started, { type: "save-seen" }).queued).toBe(true);
    const idle = fresh();
    expect(screenReducer(idle, { type: "save-seen" })).toBe(idle);
  });

  test("watcher-silent, file-missing and watch-error raise their flags", () => {
    const after = run(fresh(), { type: "watcher-silent" }, { type: "file-missing", file: "/ws/01-adder.ts" }, { type: "watch-error", message: "EMFILE" });
    expect(after).toMatchObject({ watcherSilent: true, fileMissing: true, watchError: "EMFILE" });
  });

  test("the silence notice goes once the watcher is heard again, and a withdrawn notice goes from the list", () => {
    const silent = run(fresh(), { type: "watcher-silent" }, { type: "notice", text: "a" }, { type: "notice", text: "b" });
    expect(run(silent, { type: "watcher-heard" }).watcherSilent).toBe(false);
    expect(run(silent, { type: "notice-withdrawn", text: "a" }).notices).toEqual(["b"]);
    expect(run(fresh(), { type: "watcher-heard" })).toEqual(fresh());
  });

  test("run-crashed ends the run and keeps the message", () => {
    expect(run(fresh(), started, { type: "run-crashed", message: "vitest fell over" })).toMatchObject({ phase: "idle", crash: "vitest fell over" });
  });
});

describe("keys", () => {
  test("hint-requested shows one more hint each time, then says there are no more", () => {
    const once = screenReducer(fresh(), { type: "hint-requested" });
    expect(once.hintsShown).toBe(1);
    const all = run(once, { type: "hint-requested" }, { type: "hint-requested" });
    expect(all).toMatchObject({ hintsShown: 3, hintsOver: false });
    expect(screenReducer(all, { type: "hint-requested" })).toMatchObject({ hintsShown: 3, hintsOver: true });
  });

  test("hints already seen in earlier sessions start the count, never past the last", () => {
    expect(initialScreenState({ exercise: EXERCISE, file: "f", hintsShown: 2 }).hintsShown).toBe(2);
    expect(initialScreenState({ exercise: EXERCISE, file: "f", hintsShown: 9 }).hintsShown).toBe(3);
  });

  test("pane-opened splits the text into lines from the top; pane-scrolled stays inside it; pane-closed removes it", () => {
    const text = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n\n";
    const open = screenReducer(fresh(), { type: "pane-opened", title: "Lesson", text, kind: "code" });
    expect(open.pane).toEqual({ title: "Lesson", kind: "code", text: text.trimEnd(), width: 76, lines: text.trimEnd().split("\n"), offset: 0 });
    expect(screenReducer(open, { type: "pane-scrolled", by: 3, height: 4 }).pane!.offset).toBe(3);
    expect(screenReducer(open, { type: "pane-scrolled", by: 100, height: 4 }).pane!.offset).toBe(6);
    expect(screenReducer(open, { type: "pane-scrolled", by: -1, height: 4 }).pane!.offset).toBe(0);
    expect(screenReducer(open, { type: "pane-closed" }).pane).toBeNull();
    const none = fresh();
    expect(screenReducer(none, { type: "pane-scrolled", by: 1, height: 4 })).toBe(none);
  });

  test("notice adds a sentence once", () => {
    const after = run(fresh(), { type: "notice", text: "read-only" }, { type: "notice", text: "read-only" });
    expect(after.notices).toEqual(["read-only"]);
  });

  test("live replaces the live run's word on the spend, which the status line then carries beside the verdict", () => {
    const finished = run(fresh(), started, { type: "run-finished", result: result([passed("a"), skipped("b")]) });
    const after = run(finished, { type: "live", text: "live: $0.0010 of $1.00 spent" }, { type: "live", text: "live: $0.0042 of $1.00 spent" });
    expect(after.live).toBe("live: $0.0042 of $1.00 spent");
    expect(statusLine(after).text).toBe("Run 1: 1 of 1 passed, 1 skipped · live: $0.0042 of $1.00 spent");
    expect(statusLine(fresh()).text).not.toContain("live");
  });
});

test("runSummary says what a run amounted to", () => {
  expect(runSummary(result([passed("a"), passed("b")]))).toBe("all 2 passed");
  expect(runSummary(result([passed("a"), failed("b")]))).toBe("1 of 2 passed");
  expect(runSummary(result([], SYNTAX, "error"))).toBe("syntax error");
  expect(runSummary(result([], { kind: "import", message: "threw" }, "error"))).toBe("your file did not load");
  expect(runSummary(result([], TIMEOUT, "timeout"))).toBe("stopped: it ran past the time limit");
  // A live run skips what only the scripted provider can stage: those are neither passed nor failed.
  expect(runSummary(result([passed("a"), skipped("b"), skipped("c")]))).toBe("1 of 1 passed, 2 skipped");
  expect(runSummary(result([failed("a"), skipped("b")]))).toBe("0 of 1 passed, 1 skipped");
});
