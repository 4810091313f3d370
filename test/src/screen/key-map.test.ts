import { expect, test } from "vitest";
import { commandForKey } from "../../../src/screen/key-map.js";
import { paneRows } from "../../../src/screen/screen-layout.js";
import { screenReducer } from "../../../src/screen/screen-state.js";
import { fresh, passed, result } from "./fixtures.js";

const idle = fresh();
const green = screenReducer(fresh(), { type: "run-finished", result: result([passed("a")]) });
const withPane = screenReducer(fresh(), { type: "pane-opened", title: "Lesson", text: "a\nb\nc", kind: "markdown" });

test("letters map to their commands", () => {
  expect(commandForKey("q", {}, idle)).toEqual({ kind: "quit" });
  expect(commandForKey("c", { ctrl: true }, idle)).toEqual({ kind: "quit" });
  expect(commandForKey("h", {}, idle)).toEqual({ kind: "hint" });
  expect(commandForKey("l", {}, idle)).toEqual({ kind: "lesson" });
  expect(commandForKey("r", {}, idle)).toEqual({ kind: "rerun" });
  expect(commandForKey("x", {}, idle)).toBeNull();
});

test("only the tiers the exercise has open a pane", () => {
  expect(commandForKey("1", {}, idle)).toEqual({ kind: "tier", tier: 1 });
  expect(commandForKey("2", {}, idle)).toBeNull();
  expect(commandForKey("3", {}, idle)).toEqual({ kind: "tier", tier: 3 });
});

test("n is offered only when every test passed and there is a next exercise", () => {
  expect(commandForKey("n", {}, idle)).toBeNull();
  expect(commandForKey("n", {}, green)).toEqual({ kind: "next" });
  expect(commandForKey("n", {}, { ...green, next: null })).toBeNull();
});

test("with a pane open, arrows, j/k, space and b scroll it and escape closes it", () => {
  expect(commandForKey("", { downArrow: true }, withPane)).toEqual({ kind: "scroll", by: 1 });
  expect(commandForKey("k", {}, withPane)).toEqual({ kind: "scroll", by: -1 });
  // A page is what the pane shows on an 80×24 terminal: the whole screen but its header, keys and frame.
  expect(paneRows(withPane)).toBe(13);
  expect(commandForKey(" ", {}, withPane)).toEqual({ kind: "scroll", by: 13 });
  expect(commandForKey("b", {}, withPane)).toEqual({ kind: "scroll", by: -13 });
  expect(commandForKey("", { escape: true }, withPane)).toEqual({ kind: "close-pane" });
  expect(commandForKey("", { downArrow: true }, idle)).toBeNull();
  expect(commandForKey("q", {}, withPane)).toEqual({ kind: "quit" });
});
