import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, expect, test } from "vitest";
import { bestDrillSeconds, drillsFile, formatSeconds, parseDrillLine } from "../../../src/progress/drills.js";
import { tempDir } from "../../support/temp-dir.js";

let workspace: string;
beforeEach(() => void (workspace = tempDir("drills")));

test("no drill history is null, so the column can be left out", () => {
  expect(bestDrillSeconds(workspace)).toBeNull();
});

test("the best passed time per exercise; failed drills and bad lines are skipped", () => {
  mkdirSync(join(workspace, ".lab"));
  writeFileSync(
    drillsFile(workspace),
    [
      JSON.stringify({ exercise: 1, seconds: 420, passed: true }),
      JSON.stringify({ exercise: 1, seconds: 305.4, passed: true }),
      JSON.stringify({ exercise: 1, seconds: 100, passed: false }),
      "not json",
      JSON.stringify({ exercise: "2", seconds: 50, passed: true }),
      JSON.stringify({ exercise: 2, seconds: -1, passed: true }),
      "null",
      JSON.stringify({ exercise: 3, seconds: 61, passed: true, lines: 24 }),
      "",
    ].join("\n"),
  );
  expect(bestDrillSeconds(workspace)).toEqual(
    new Map([
      [1, 305.4],
      [3, 61],
    ]),
  );
});

test("times read as m:ss, or h:mm:ss past an hour", () => {
  expect(formatSeconds(0)).toBe("0:00");
  expect(formatSeconds(305.4)).toBe("5:05");
  expect(formatSeconds(3723)).toBe("1:02:03");
});

test("a peeked attempt is no best time: it was not from memory", () => {
  mkdirSync(join(workspace, ".lab"));
  writeFileSync(
    drillsFile(workspace),
    [
      JSON.stringify({ exercise: 1, seconds: 90, passed: true, peeked: true }),
      JSON.stringify({ exercise: 1, seconds: 300, passed: true, peeked: false }),
      JSON.stringify({ exercise: 2, seconds: 60, passed: true, peeked: true }),
    ].join("\n"),
  );
  expect(bestDrillSeconds(workspace)).toEqual(new Map([[1, 300]]));
});

test("parseDrillLine: the three fields every reader needs, with their types; anything else rides along", () => {
  expect(parseDrillLine('{"exercise":1,"seconds":61.5,"passed":false,"lines":20}')).toEqual({ exercise: 1, seconds: 61.5, passed: false, lines: 20 });
  for (const bad of [
    "",
    "null",
    "[]",
    "{}",
    '{"exercise":1,"seconds":5}',
    '{"exercise":1.5,"seconds":5,"passed":true}',
    '{"exercise":1,"seconds":5,"passed":"yes"}',
    '{"exercise":1,"seconds":5,"passed":true,"peeked":1}',
  ]) {
    expect(parseDrillLine(bad), bad).toBeNull();
  }
});
