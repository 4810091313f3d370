import { expect, test } from "vitest";
import { exerciseHistory, sparkline } from "../../../src/drill/history-view.js";
import type { DrillRecord } from "../../../src/drill/history.js";

test("a sparkline runs from the fastest to the slowest time; equal times sit in the middle", () => {
  expect(sparkline([700, 600, 400, 100])).toBe("█▇▅▁");
  expect(sparkline([300, 300])).toBe("▄▄");
  expect(sparkline([42])).toBe("▄");
});

test("one exercise: a row per attempt, the trend of green times, the best against the target", () => {
  const records: DrillRecord[] = [
    { exercise: 1, seconds: 412.4, passed: true, lines: 31, runs: 9, attempt: 1, at: "2026-03-01T10:00:00.000Z", interview: { right: 2, asked: 3 } },
    { exercise: 1, seconds: 120, passed: false, abandoned: true, lines: 4, runs: 1, attempt: 2, at: "2026-03-02T09:30:00.000Z" },
    { exercise: 1, seconds: 200, passed: true, peeked: true, lines: 27, runs: 4, attempt: 3, at: "2026-03-03T18:05:00.000Z" },
    { exercise: 1, seconds: 305, passed: true },
  ];
  expect(exerciseHistory({ number: 1, title: "The tool-calling loop" }, records, 600)).toEqual([
    "Exercise 1 · The tool-calling loop",
    "  #  ended (UTC)       time  lines  runs  result   peeked  interview",
    "  1  2026-03-01 10:00  6:52     31     9  green            2/3",
    "  2  2026-03-02 09:30  2:00      4     1  gave up",
    "  3  2026-03-03 18:05  3:20     27     4  green    yes",
    "                       5:05               green",
    "Trend (green times, oldest → newest): █▁▄  6:52 → 5:05",
    "Best 5:05 · target 10:00",
  ]);
});

test("a single attempt, abandoned: no trend, no best yet", () => {
  expect(exerciseHistory({ number: 2, title: "Retry" }, [{ exercise: 2, seconds: 59, passed: false }], 600).slice(-1)).toEqual([
    "No green drill without peeking or pasting yet · target 10:00",
  ]);
  expect(exerciseHistory({ number: 2, title: "Retry" }, [{ exercise: 2, seconds: 59, passed: true }], 600).slice(-2)).toEqual([
    "Trend (green times): ▄  0:59",
    "Best 0:59 · target 10:00",
  ]);
});
