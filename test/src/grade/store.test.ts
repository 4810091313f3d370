import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseRecord } from "../../../src/grade/record.js";
import { FRESH_FILE, latestByKey, readRecords, ResultsStore } from "../../../src/grade/store.js";
import { record } from "./records.js";
import { tempDir } from "./support.js";

const store = () => new ResultsStore(join(tempDir("store"), ".lab-grade"));

describe("results.jsonl", () => {
  test("each append is one whole line, readable at once", () => {
    const s = store();
    s.append(record("ada", "01-adder"));
    s.append(record("ben", "01-adder", { state: "fail" }));
    const lines = readFileSync(s.file, "utf8").split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    expect(readRecords(s.file).map((r) => [r.key, r.state])).toEqual([
      ["ada/01-adder", "pass"],
      ["ben/01-adder", "fail"],
    ]);
  });

  test("a line torn by a kill is skipped, and the next append starts on a line of its own", () => {
    const s = store();
    s.append(record("ada", "01-adder"));
    appendFileSync(s.file, JSON.stringify(record("ben", "01-adder")).slice(0, 40));
    expect(readRecords(s.file).map((r) => r.key)).toEqual(["ada/01-adder"]);
    const again = new ResultsStore(s.dir);
    again.append(record("cy", "01-adder"));
    expect(readRecords(s.file).map((r) => r.key)).toEqual(["ada/01-adder", "cy/01-adder"]);
  });

  test("the later record of a pair wins; on the same instant, the one further down", () => {
    const older = record("ada", "01-adder", { state: "fail", at: "2026-03-01T10:00:00.000Z" });
    const newer = record("ada", "01-adder", { state: "pass", at: "2026-03-01T11:00:00.000Z" });
    expect(latestByKey([newer, older]).get("ada/01-adder")!.state).toBe("pass");
    const tie = record("ada", "01-adder", { state: "error", at: newer.at });
    expect(latestByKey([newer, tie]).get("ada/01-adder")!.state).toBe("error");
  });

  test("lines that are not records of this format, or name a learner that is a path, are skipped", () => {
    expect(parseRecord("not json")).toBeNull();
    expect(parseRecord(JSON.stringify({ ...record("ada", "01-adder"), format: 99 }))).toBeNull();
    expect(parseRecord(JSON.stringify(record("../../etc", "01-adder")))).toBeNull();
    expect(parseRecord(JSON.stringify(record(".hidden", "01-adder")))).toBeNull();
    expect(parseRecord(JSON.stringify(record("a/b", "01-adder")))).toBeNull();
    expect(parseRecord(JSON.stringify(record("ada", "01-adder")))!.key).toBe("ada/01-adder");
  });

  test("replaceAll writes the whole file at once", () => {
    const s = store();
    s.append(record("ada", "01-adder"));
    s.replaceAll([record("ben", "01-adder"), record("cy", "02-greeter")]);
    expect(readRecords(s.file).map((r) => r.key)).toEqual(["ben/01-adder", "cy/02-greeter"]);
    writeFileSync(s.file, "");
    expect(s.latest().size).toBe(0);
  });
});

describe("fresh.json: what an unfinished --fresh run has yet to grade again", () => {
  const SINCE = "2026-03-01T12:00:00.000Z";

  test("marked pairs stay pending until each has a result from the fresh run on, then the file goes", () => {
    const s = store();
    s.append(record("ada", "01-adder", { at: "2026-03-01T10:00:00.000Z" }));
    s.markFresh(["ada/01-adder", "ben/01-adder"], SINCE);
    s.append(record("ben", "01-adder", { at: "2026-03-01T12:00:05.000Z" }));
    s.settleFresh();
    expect([...s.pendingFresh()]).toEqual([["ada/01-adder", SINCE]]);
    s.append(record("ada", "01-adder", { at: "2026-03-01T12:00:09.000Z" }));
    s.settleFresh();
    expect(s.pendingFresh().size).toBe(0);
    expect(existsSync(join(s.dir, FRESH_FILE))).toBe(false);
  });

  test("a later --fresh run adds its pairs with its own start; an unreadable file is nothing pending", () => {
    const s = store();
    s.markFresh(["ada/01-adder"], SINCE);
    s.markFresh(["ben/01-adder"], "2026-03-01T13:00:00.000Z");
    expect(Object.fromEntries(s.pendingFresh())).toEqual({ "ada/01-adder": SINCE, "ben/01-adder": "2026-03-01T13:00:00.000Z" });
    writeFileSync(join(s.dir, FRESH_FILE), '{"ada/01-adder": "2026');
    expect(s.pendingFresh().size).toBe(0);
  });
});
