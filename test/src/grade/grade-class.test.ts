import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { GRADE_ERRORS, GRADE_NOTES, GRADE_REASONS } from "../../../src/grade/messages.js";
import { gradeCommand } from "../../../src/commands/grade.js";
import { MAX_FILE_KB } from "../../../src/grade/plan.js";
import { captureIo } from "../../support/io.js";
import { classCopy, FIXTURE, GOOD_TABLE, gradeHere, jsonWithoutMs, learnerResults, noSignals, PATHS, resultLines, tempDir, withoutMs } from "./support.js";

let dir: string;
let first: Awaited<ReturnType<typeof gradeHere>>;

beforeAll(async () => {
  dir = classCopy();
  first = await gradeHere(dir, { timeout: "10", jobs: "2" });
}, 120_000);

describe("grading the fixture class", () => {
  test("exit 0 and one row per learner × exercise, then learner totals, then class totals", () => {
    expect(first.code).toBe(0);
    expect(withoutMs(first.out)).toBe(GOOD_TABLE);
    expect(first.err.split("\n")[0]).toBe(GRADE_NOTES.planned(7, 0, 3));
    expect(first.err).toMatch(/^\[1\/7\] \w+ 0[12]-\w+: (pass|fail) \d\/\d \(\d+ ms\)$/m);
  });

  test("every pair is a record in results.jsonl", () => {
    const lines = resultLines(dir);
    expect(lines.map((r) => r.key).sort()).toEqual(["ada", "ben", "cy", "dee", "eve"].flatMap((l) => [`${l}/01-adder`, `${l}/02-greeter`]));
  });

  test("results.json per learner, in exercism's shape", () => {
    expect(JSON.parse(learnerResults(dir)["ben"]!)).toEqual({
      version: 3,
      status: "fail",
      message: null,
      tests: [
        { name: "01-adder: adds two numbers (off-by-one bug)", status: "pass", message: null, task_id: 1 },
        { name: "01-adder: adds negative numbers (off-by-one bug)", status: "fail", message: "expected 5 to be -5 // Object.is equality", task_id: 1 },
        { name: "01-adder: asks the model to echo the sum (no-echo bug)", status: "pass", message: null, task_id: 1 },
        {
          name: "02-greeter: greets by name (no-trim bug)",
          status: "fail",
          message: "expected 'Hello,   Ada !' to be 'Hello, Ada!' // Object.is equality",
          task_id: 2,
        },
        { name: "02-greeter: greets a stranger when the name is blank (no-fallback bug)", status: "pass", message: null, task_id: 2 },
      ],
    });
    expect(JSON.parse(learnerResults(dir)["eve"]!)).toMatchObject({
      status: "error",
      message: "01-adder: No file eve/01-adder.ts.\n02-greeter: No file eve/02-greeter.ts.",
    });
  });

  test("the learners' folders are left as they were", () => {
    expect(readFileSync(join(dir, "ben/01-adder.ts"), "utf8")).toBe(readFileSync(join(FIXTURE, "learners/ben/01-adder.ts"), "utf8"));
  });
});

describe("grading again", () => {
  test("nothing changed: every result reused, the very same table, ms and all, and nothing appended", async () => {
    const lines = resultLines(dir).length;
    const again = await gradeHere(dir, { timeout: "10" });
    expect(again.code).toBe(0);
    expect(again.out).toBe(first.out);
    expect(again.err.split("\n")[0]).toBe(GRADE_NOTES.planned(0, 10, 0));
    expect(resultLines(dir)).toHaveLength(lines);
  });

  test("other formats and --out come from the same records, without running anything", async () => {
    const json = await gradeHere(dir, { timeout: "10", format: "json" });
    const rows = (jsonWithoutMs(json.out) as { rows: { learner: string; exercise: string; state: string; detail: string | null }[] }).rows;
    expect(rows.map((r) => `${r.learner}/${r.exercise}:${r.state}`)).toEqual(
      GOOD_TABLE.split("\n")
        .slice(1, 11)
        .map((l) => l.split(/ +/))
        .map(([l, e, , s]) => `${l}/${e}:${s}`),
    );
    expect(rows[2]!.detail).toBe("expected 5 to be -5 // Object.is equality");
    const out = join(tempDir("out"), "grades.csv");
    const csv = await gradeHere(dir, { timeout: "10", format: "csv", out });
    expect(csv.out).toBe("");
    expect(csv.err).toContain(GRADE_NOTES.wrote(out));
    expect(readFileSync(out, "utf8").split("\r\n")[3]).toMatch(
      /^ben,01-adder,1,fail,2,3,adds negative numbers \(off-by-one bug\),expected 5 to be -5 \/\/ Object.is equality,\d+,,,"1 hint, tier 3 before passing"$/,
    );
  });

  test("an edited file is graded again, alone; a new best drill time is recorded without a run", async () => {
    writeFileSync(join(dir, "cy/01-adder.ts"), readFileSync(join(FIXTURE, "solutions/01-adder.ts")));
    mkdirSync(join(dir, "cy/.lab"), { recursive: true });
    writeFileSync(join(dir, "cy/.lab/drills.jsonl"), '{"exercise":2,"seconds":61,"passed":true}\n');
    const again = await gradeHere(dir, { timeout: "10" });
    expect(again.err.split("\n")[0]).toBe(GRADE_NOTES.planned(1, 8, 1));
    expect(withoutMs(again.out).split("\n")[5]).toBe("cy       01-adder    3/3     pass     -");
    expect(again.out).toContain("cy       2/2               5/5           01 -, 02 1:01");
  });

  test("--fresh runs pairs again even when nothing changed", async () => {
    const again = await gradeHere(dir, { timeout: "10", fresh: true, exercises: "2" });
    expect(again.err.split("\n")[0]).toBe(GRADE_NOTES.planned(4, 1, 0));
    const rows = withoutMs(again.out).split("\n\n")[0]!.split("\n").slice(1);
    expect(rows.map((row) => row.split(/ +/).slice(0, 4).join(" "))).toEqual([
      "ada 02-greeter 2/2 pass",
      "ben 02-greeter 1/2 fail",
      "cy 02-greeter 2/2 pass",
      "dee 02-greeter 2/2 pass",
      "eve 02-greeter - missing",
    ]);
  }, 60_000);
});

describe("files that are not run", () => {
  test("a link, a folder or a huge file in place of a learner's file is an error row, and nothing runs", async () => {
    const cls = classCopy(["ada"]);
    const secret = join(tempDir("secret"), "secret.txt");
    writeFileSync(secret, "the instructor's secret\n");
    rmSync(join(cls, "ada/01-adder.ts"));
    symlinkSync(secret, join(cls, "ada/01-adder.ts"));
    rmSync(join(cls, "ada/02-greeter.ts"));
    mkdirSync(join(cls, "ada/02-greeter.ts"));
    mkdirSync(join(cls, "bob"));
    writeFileSync(join(cls, "bob/01-adder.ts"), `// ${"x".repeat(MAX_FILE_KB * 1024)}\n`);
    const run = await gradeHere(cls, { timeout: "10", format: "json" });
    expect(run.err.split("\n")[0]).toBe(GRADE_NOTES.planned(0, 0, 4));
    const rows = (JSON.parse(run.out) as { rows: { learner: string; exercise: string; state: string; detail: string }[] }).rows;
    expect(rows.map((r) => [r.learner, r.exercise, r.state, r.detail])).toEqual([
      ["ada", "01-adder", "error", GRADE_REASONS.notAFile("ada/01-adder.ts")],
      ["ada", "02-greeter", "error", GRADE_REASONS.notAFile("ada/02-greeter.ts")],
      ["bob", "01-adder", "error", GRADE_REASONS.tooLarge("bob/01-adder.ts", 512)],
      ["bob", "02-greeter", "missing", GRADE_REASONS.missing("bob/02-greeter.ts")],
    ]);
    expect(GRADE_REASONS.notAFile("ada/01-adder.ts")).toBe("ada/01-adder.ts is not a regular file (a folder or a link), so it was not run.");
    expect(GRADE_REASONS.tooLarge("bob/01-adder.ts", 512)).toBe("bob/01-adder.ts is larger than 512 KB, so it was not run.");
    expect(run.out).not.toContain("secret");
  });
});

describe("a learner who handed in the whole lab folder", () => {
  test("name/workspace/NN-slug.ts is graded, with its drills, and a missing file is named where it was looked for", async () => {
    const cls = tempDir("handed-in-lab");
    cpSync(join(FIXTURE, "learners/ada"), join(cls, "ada/workspace"), { recursive: true });
    writeFileSync(join(cls, "ada/README.md"), "the rest of ada's lab folder\n");
    mkdirSync(join(cls, "ben/workspace"), { recursive: true });
    cpSync(join(FIXTURE, "learners/ben/01-adder.ts"), join(cls, "ben/workspace/01-adder.ts"));
    const run = await gradeHere(cls, { timeout: "10", format: "json" });
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.out) as { rows: { learner: string; exercise: string; state: string; passed: number; detail: string | null }[] };
    expect(summary.rows.map((r) => [r.learner, r.exercise, r.state, r.passed])).toEqual([
      ["ada", "01-adder", "pass", 3],
      ["ada", "02-greeter", "pass", 2],
      ["ben", "01-adder", "fail", 2],
      ["ben", "02-greeter", "missing", 0],
    ]);
    expect(summary.rows[3]!.detail).toBe(GRADE_REASONS.missing("ben/workspace/02-greeter.ts"));
    expect(GRADE_REASONS.missing("ben/workspace/02-greeter.ts")).toBe("No file ben/workspace/02-greeter.ts.");
    const table = await gradeHere(cls, { timeout: "10" });
    expect(table.out).toContain(GOOD_TABLE.split("\n").find((line) => line.startsWith("ada      2/2")));
  });
});

describe("when grading cannot run: exit 2 and one sentence", () => {
  test.each([
    ["no folder given", undefined, {}, GRADE_ERRORS.noDir],
    ["a folder that does not exist", "/nonexistent/class", {}, "There is no folder at /nonexistent/class."],
    ["an exercise that does not exist", "LEARNERS", { exercises: "1,3-4" }, "There is no exercise 3 and 4; the exercises are 1 and 2."],
    ["a bad flag value", "LEARNERS", { jobs: "0" }, GRADE_ERRORS.badJobs("0")],
    ["a folder and --merge", "LEARNERS", { merge: ["x"] }, "Give either a class folder to grade or --merge with the folders to combine, not both."],
    ["--merge with a grading flag", undefined, { merge: ["x"], timeout: "3" }, "--merge combines finished results, so --timeout cannot be used with it."],
    [
      "--merge of a folder with no results",
      undefined,
      { merge: ["/nonexistent/shard"] },
      "There are no results to merge in /nonexistent/shard: expected /nonexistent/shard/.lab-grade/results.jsonl or /nonexistent/shard/results.jsonl.",
    ],
  ])("%s", async (_, target, flags, message) => {
    const io = captureIo(tmpdir());
    const dirArg = target === "LEARNERS" ? join(FIXTURE, "learners") : target;
    await expect(gradeCommand(dirArg, flags, io, PATHS, noSignals)).rejects.toMatchObject({ message, exitCode: 2 });
    expect(io.out()).toBe("");
  });

  test("the noDir sentence, word for word", () => {
    expect(GRADE_ERRORS.noDir).toBe("Say which folder to grade, e.g. lab grade ./class, or combine shards with lab grade --merge DIR....");
  });
});
