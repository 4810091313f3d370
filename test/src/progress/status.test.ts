import { expect, test } from "vitest";
import type { Exercise } from "../../../checker/model/exercises.js";
import type { Progress } from "../../../src/progress/progress-data.js";
import { nextExercise, nextStepOf, statusOf } from "../../../src/progress/status.js";

const ex = (number: number) => ({ id: `0${number}-x`, number, title: `Ex ${number}` }) as Exercise;
const all = [ex(1), ex(2)];
const progress = (exercises: Progress["exercises"]): Progress => ({ version: 1, exercises });
const T = "2026-03-01T10:00:00.000Z";

test("untouched: no file and no record", () => {
  expect(statusOf(ex(1), progress({}), false, all)).toBe("untouched");
});

test("started: a file, or a record of starting, but never green", () => {
  expect(statusOf(ex(1), progress({}), true, all)).toBe("started");
  expect(statusOf(ex(1), progress({ "01-x": { hintsShown: 0, startedAt: T } }), false, all)).toBe("started");
});

test("passing: passed once; done once the solution was compared or a later exercise started", () => {
  const passed = { hintsShown: 0, startedAt: T, passedAt: T };
  expect(statusOf(ex(1), progress({ "01-x": passed }), true, all)).toBe("passing");
  expect(statusOf(ex(1), progress({ "01-x": { ...passed, solutionSeenAt: T } }), true, all)).toBe("done");
  expect(statusOf(ex(1), progress({ "01-x": passed, "02-x": { hintsShown: 0, startedAt: T } }), true, all)).toBe("done");
});

test("each status says what to do next", () => {
  expect(nextStepOf(ex(3), "untouched")).toBe("lab start 3");
  expect(nextStepOf(ex(3), "started")).toBe("lab start 3 (stuck? lab hint 3)");
  expect(nextStepOf(ex(3), "passing")).toBe("lab solution 3 to compare");
  expect(nextStepOf(ex(3), "done")).toBe("");
});

test("the next exercise is the first that has not passed", () => {
  const rows = [
    { exercise: ex(1), status: "done" as const },
    { exercise: ex(2), status: "passing" as const },
    { exercise: ex(3), status: "started" as const },
    { exercise: ex(4), status: "untouched" as const },
  ];
  expect(nextExercise(rows)?.exercise.number).toBe(3);
  expect(nextExercise(rows.slice(0, 2))).toBeUndefined();
});
