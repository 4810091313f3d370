import { expect, test } from "vitest";
import { personalBest, resultLines, type AttemptResult } from "../../../src/drill/compare.js";
import type { DrillRecord } from "../../../src/drill/history.js";

const targets = { seconds: 600, lines: 25 };
const attempt = (over: Partial<AttemptResult> = {}): AttemptResult => ({
  exercise: 1,
  seconds: 245.3,
  passed: true,
  peeked: false,
  pasted: false,
  lines: 23,
  runs: 6,
  interview: null,
  ...over,
});
const green = (seconds: number, peeked = false): DrillRecord => ({ exercise: 1, seconds, passed: true, peeked });
const gaveUp = (seconds: number): DrillRecord => ({ exercise: 1, seconds, passed: false, abandoned: true });

test("the first green drill: time, lines, runs; under both targets; the personal best by definition", () => {
  expect(resultLines(attempt(), [], targets)).toEqual([
    "Green in 4:05 · 23 lines · 6 runs · no peeking",
    "Lines count where the statements inside your functions start: imports, types, top-level constants, signatures, braces and comments do not.",
    "Target: 10:00 met with 5:55 to spare; 25 lines met with 2 lines to spare.",
    "Your first green drill of exercise 1 without peeking: it is your personal best.",
  ]);
});

test("over both targets, slower than the best, and compared with the last five", () => {
  const previous = [green(100), green(500), gaveUp(90), green(320, true), green(400), green(700), gaveUp(30)];
  expect(resultLines(attempt({ seconds: 605, lines: 31, runs: 1 }), previous, targets)).toEqual([
    "Green in 10:05 · 31 lines · 1 run · no peeking",
    "Lines count where the statements inside your functions start: imports, types, top-level constants, signatures, braces and comments do not.",
    "Target: 10:00 missed by 0:05; 25 lines exceeded by 6 lines.",
    "Personal best 1:40: this one was 8:25 slower.",
    "Last 5: gave up at 1:30 · 5:20 (peeked) · 6:40 · 11:40 · gave up at 0:30.",
    "This one was 2:12 slower than the average of their green ones, 7:53.",
  ]);
});

test("a new best, an equal best, and a peeked attempt that cannot be one", () => {
  expect(resultLines(attempt({ seconds: 200 }), [green(245)], targets)[3]).toBe("New personal best: 0:45 faster than 4:05.");
  expect(resultLines(attempt({ seconds: 245.4 }), [green(244.6)], targets)[3]).toBe("Equal to your personal best, 4:05.");
  expect(resultLines(attempt({ peeked: true, seconds: 10 }), [green(245)], targets)[3]).toBe(
    "Peeked, so it does not count as a personal best (your best: 4:05).",
  );
  expect(resultLines(attempt({ peeked: true }), [], targets)[0]).toBe("Green in 4:05 · 23 lines · 6 runs · peeked");
  expect(resultLines(attempt({ peeked: true }), [], targets)[3]).toBe("Peeked, so it does not count as a personal best.");
});

test("last five without a green one, and the interview's score", () => {
  const lines = resultLines(attempt({ interview: { right: 2, asked: 3 } }), [gaveUp(61)], targets);
  expect(lines.slice(4)).toEqual(["Last 1: gave up at 1:01.", "None of them was green, so there is no average to compare with.", "Interview: 2 of 3 right."]);
});

test("giving up: the elapsed time, recorded as abandoned, beside the last attempts", () => {
  expect(resultLines(attempt({ passed: false, seconds: 192, lines: 1, runs: 1 }), [], targets)).toEqual([
    "Gave up after 3:12 · 1 line · 1 run · no peeking · recorded as abandoned",
  ]);
  expect(resultLines(attempt({ passed: false, seconds: 192 }), [green(100)], targets)[1]).toBe("Last 1: 1:40.");
});

test("the personal best is the fastest green attempt without peeking", () => {
  expect(personalBest([green(90, true), gaveUp(10), green(300), green(250)])).toBe(250);
  expect(personalBest([gaveUp(10), green(5, true)])).toBeNull();
});

test("a pasted attempt is recorded as pasted: never a personal best, and not the best a later attempt is compared with", () => {
  const lines = resultLines(attempt({ seconds: 3, pasted: true }), [green(300)], targets);
  expect(lines).toContain("Pasted: green faster than its code can be typed, so it is recorded as pasted and is not a personal best (your best: 5:00).");
  expect(lines.join("\n")).not.toContain("New personal best");
  const previous: DrillRecord[] = [green(300), { exercise: 1, seconds: 3, passed: true, pasted: true }];
  expect(personalBest(previous)).toBe(300);
  expect(resultLines(attempt({ seconds: 200 }), previous, targets)).toContain("New personal best: 1:40 faster than 5:00.");
  expect(resultLines(attempt({ seconds: 200 }), previous, targets).join("\n")).toContain("0:03 (pasted)");
});
