import { expect, test } from "vitest";
import { drillPaneRows } from "../../../src/drill/drill-lines-view.js";
import { drillCommandForKey, splitKeys } from "../../../src/drill/drill-keys.js";
import { drillReducer, initialDrillState, type DrillAction } from "../../../src/drill/drill-state.js";
import { screenReducer } from "../../../src/screen/screen-state.js";
import { fresh as freshScreen } from "../screen/fixtures.js";

const drill = (...actions: DrillAction[]) =>
  actions.reduce(
    drillReducer,
    initialDrillState({ exercise: { number: 1, title: "T" }, attempt: 1, file: "/f.ts", given: "", openedAt: 0, questions: [{ q: "Why?", a: "Because." }] }),
  );
const screen = freshScreen(); // tiers 1 and 3
const green: DrillAction[] = [
  { type: "saved", at: 0 },
  { type: "run-started", at: 1, version: "solved" },
  { type: "run-finished", at: 2, passed: true },
];

test("q gives up, r reruns, h l s and the exercise's tiers ask to open; a tier it lacks does nothing", () => {
  expect(drillCommandForKey("q", {}, drill(), screen)).toEqual({ kind: "quit" });
  expect(drillCommandForKey("c", { ctrl: true }, drill(), screen)).toEqual({ kind: "quit" });
  expect(drillCommandForKey("r", {}, drill(), screen)).toEqual({ kind: "rerun" });
  expect(drillCommandForKey("h", {}, drill(), screen)).toEqual({ kind: "open", what: "hint" });
  expect(drillCommandForKey("l", {}, drill(), screen)).toEqual({ kind: "open", what: "lesson" });
  expect(drillCommandForKey("s", {}, drill(), screen)).toEqual({ kind: "open", what: "solution" });
  expect(drillCommandForKey("3", {}, drill(), screen)).toEqual({ kind: "open", what: "tier 3" });
  expect(drillCommandForKey("2", {}, drill(), screen)).toBeNull();
});

test("while a confirmation waits, y confirms and any other key goes back, q included", () => {
  const asking = drill({ type: "peek-asked", what: "lesson" });
  expect(drillCommandForKey("y", {}, asking, screen)).toEqual({ kind: "confirm" });
  expect(drillCommandForKey("q", {}, asking, screen)).toEqual({ kind: "cancel" });
  expect(drillCommandForKey("", { escape: true }, asking, screen)).toEqual({ kind: "cancel" });
});

test("with a pane open, arrows scroll and escape closes it", () => {
  const withPane = screenReducer(screen, { type: "pane-opened", title: "Lesson", text: "a\nb", kind: "markdown" });
  expect(drillCommandForKey("", { escape: true }, drill(), withPane)).toEqual({ kind: "close-pane" });
  expect(drillCommandForKey("j", {}, drill(), withPane)).toEqual({ kind: "scroll", by: 1 });
  expect(drillCommandForKey(" ", {}, drill(), withPane)).toEqual({
    kind: "scroll",
    by: drillPaneRows({ screen: withPane, drill: drill(), interactive: true }),
  });
});

test("typing an answer: every printable key is text, q and y included; backspace and enter act", () => {
  const typing = drill(...green, { type: "answer-typed", answer: "ab" });
  expect(drillCommandForKey("q", {}, typing, screen)).toEqual({ kind: "type", answer: "abq" });
  expect(drillCommandForKey("", { backspace: true }, typing, screen)).toEqual({ kind: "type", answer: "a" });
  expect(drillCommandForKey("", { return: true }, typing, screen)).toEqual({ kind: "submit", answer: "ab" });
  expect(drillCommandForKey("", { upArrow: true }, typing, screen)).toBeNull();
  expect(drillCommandForKey("c", { ctrl: true }, typing, screen)).toEqual({ kind: "quit" });
});

test("judging: y right, n wrong, q quits; once every question is marked, the usual keys are back", () => {
  const judging = drill(...green, { type: "answer-typed", answer: "ab" }, { type: "answer-submitted" });
  expect(drillCommandForKey("y", {}, judging, screen)).toEqual({ kind: "mark", right: true });
  expect(drillCommandForKey("n", {}, judging, screen)).toEqual({ kind: "mark", right: false });
  expect(drillCommandForKey("h", {}, judging, screen)).toBeNull();
  const done = drillReducer(judging, { type: "answer-marked", right: true });
  expect(drillCommandForKey("q", {}, done, screen)).toEqual({ kind: "quit" });
  expect(drillCommandForKey("s", {}, done, screen)).toEqual({ kind: "open", what: "solution" });
});

test("keys that arrive in one chunk are taken one at a time: a mark, then the next answer's text", () => {
  expect(splitKeys("yids", {})).toEqual([
    ["y", {}],
    ["i", {}],
    ["d", {}],
    ["s", {}],
  ]);
  expect(splitKeys("cd\u007Fe\r", {})).toEqual([
    ["c", {}],
    ["d", {}],
    ["", { backspace: true }],
    ["e", {}],
    ["", { return: true }],
  ]);
  // a pasted line break is a space, so a paste cannot submit and then mark
  expect(splitKeys("one\nyes", {})).toEqual([..."one yes"].map((c) => [c, {}]));
  expect(splitKeys("a\tb\u0001", {})).toEqual([
    ["a", {}],
    [" ", {}],
    ["b", {}],
  ]);
  expect(splitKeys("q", {})).toEqual([["q", {}]]);
  expect(splitKeys("[A", { upArrow: true })).toEqual([["[A", { upArrow: true }]]);
});
