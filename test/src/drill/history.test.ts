import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, expect, test } from "vitest";
import { appendRecord, HISTORY_MESSAGES, readHistory, type DrillRecord } from "../../../src/drill/history.js";
import { bestDrillSeconds, drillsFile } from "../../../src/progress/drills.js";
import { tempDir } from "../../support/temp-dir.js";

let workspace: string;
beforeEach(() => void (workspace = tempDir("drill-history")));

const record = (over: Partial<DrillRecord> = {}): DrillRecord => ({
  exercise: 1,
  seconds: 245.3,
  passed: true,
  abandoned: false,
  peeked: false,
  lines: 23,
  runs: 6,
  attempt: 1,
  at: "2026-03-01T10:00:00.000Z",
  file: "drills/01-tool-loop.1.ts",
  ...over,
});

test("no file is an empty history", () => {
  expect(readHistory(workspace)).toEqual({ records: [], skipped: [] });
});

test("each attempt appends one JSON line; what is read back is what was written", () => {
  appendRecord(workspace, record());
  appendRecord(workspace, record({ attempt: 2, seconds: 60, passed: false, abandoned: true, peeks: ["hint"], peeked: true }));
  appendRecord(workspace, record({ attempt: 3, interview: { right: 2, asked: 3 } }));
  const lines = readFileSync(drillsFile(workspace), "utf8").split("\n");
  expect(lines).toHaveLength(4);
  expect(lines[3]).toBe("");
  expect(lines.slice(0, 3).map((l) => JSON.parse(l))).toEqual(readHistory(workspace).records);
  expect(readHistory(workspace).records.map((r) => r.attempt)).toEqual([1, 2, 3]);
  expect(readdirSync(join(workspace, ".lab"))).toEqual(["drills.jsonl"]); // no temp file left behind
});

test("a corrupt line is skipped and named; every other line still reads, and an append keeps it as it was", () => {
  mkdirSync(join(workspace, ".lab"));
  const good = JSON.stringify(record());
  writeFileSync(drillsFile(workspace), `${good}\n{"exercise":1,"seconds":\n\n${JSON.stringify(record({ attempt: 2 }))}\nnull`);
  const history = readHistory(workspace);
  expect(history.records.map((r) => r.attempt)).toEqual([1, 2]);
  expect(history.skipped).toEqual([2, 5]);
  expect(HISTORY_MESSAGES.skipped("/ws/.lab/drills.jsonl", history.skipped)).toBe(
    "Lines 2 and 5 of /ws/.lab/drills.jsonl are not drill records, so they were skipped.",
  );
  expect(HISTORY_MESSAGES.skipped("/ws/.lab/drills.jsonl", [7])).toBe("Line 7 of /ws/.lab/drills.jsonl is not a drill record, so it was skipped.");
  appendRecord(workspace, record({ attempt: 3 }));
  const text = readFileSync(drillsFile(workspace), "utf8");
  expect(text.startsWith(`${good}\n{"exercise":1,"seconds":\n\n`)).toBe(true);
  expect(text.endsWith(`null\n${JSON.stringify(record({ attempt: 3 }))}\n`)).toBe(true);
  expect(readHistory(workspace).records.map((r) => r.attempt)).toEqual([1, 2, 3]);
});

test("lines written by older versions read with the fields they have; fields of the wrong shape are dropped", () => {
  mkdirSync(join(workspace, ".lab"));
  writeFileSync(
    drillsFile(workspace),
    [
      '{"exercise":1,"seconds":412.4,"passed":true,"lines":9,"attempts":3,"at":"2026-03-01T10:00:00.000Z"}',
      '{"exercise":2,"seconds":30,"passed":false,"lines":-1,"runs":"4","interview":{"right":4,"asked":3},"at":"yesterday"}',
    ].join("\n"),
  );
  expect(readHistory(workspace).records).toEqual([
    { exercise: 1, seconds: 412.4, passed: true, lines: 9, at: "2026-03-01T10:00:00.000Z" },
    { exercise: 2, seconds: 30, passed: false },
  ]);
});

test("lab list reads the best time from the lines lab drill writes", () => {
  appendRecord(workspace, record({ seconds: 300 }));
  appendRecord(workspace, record({ seconds: 200, peeked: true, peeks: ["tier 1"] }));
  appendRecord(workspace, record({ seconds: 100, passed: false, abandoned: true }));
  appendRecord(workspace, record({ seconds: 250.5 }));
  expect(bestDrillSeconds(workspace)).toEqual(new Map([[1, 250.5]]));
});
