import { describe, expect, test } from "vitest";
import { UserError } from "../../../src/terminal/errors.js";
import { GRADE_ERRORS } from "../../../src/grade/messages.js";
import { DEFAULT_MEMORY_MB, gradeSettings, GRADE_FAILED, mergeConflicts, parseExerciseList, parseShard } from "../../../src/grade/options.js";

function failure(run: () => unknown): UserError {
  try {
    run();
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error("expected a UserError");
}

describe("--exercises", () => {
  test("numbers and ranges, sorted, without repeats", () => {
    expect(parseExerciseList("1,2,5-7")).toEqual([1, 2, 5, 6, 7]);
    expect(parseExerciseList(" 3 , 1-2,2 ")).toEqual([1, 2, 3]);
    expect(parseExerciseList("4")).toEqual([4]);
  });

  test.each(["", "a", "1,,2", "3-1", "0", "1-", "-2", "1.5"])("%j is refused in one sentence", (value) => {
    const err = failure(() => parseExerciseList(value));
    expect(err.message).toBe(GRADE_ERRORS.badExerciseList(value));
    expect(err.message).toBe(`--exercises takes exercise numbers and ranges such as 1,2,5-7 (got "${value}").`);
    expect(err.exitCode).toBe(GRADE_FAILED);
  });
});

describe("--shard", () => {
  test("i/n", () => {
    expect(parseShard("2/3")).toEqual({ index: 2, count: 3 });
    expect(parseShard("1/1")).toEqual({ index: 1, count: 1 });
  });

  test.each(["0/3", "4/3", "3", "a/b", "1/0", "-1/2"])("%j is refused in one sentence", (value) => {
    expect(failure(() => parseShard(value)).message).toBe(`--shard takes i/n with 1 ≤ i ≤ n, such as 2/3 (got "${value}").`);
  });
});

describe("settings", () => {
  test("defaults: every exercise, one job per core, the config's time limit, 512 MB, a table on stdout", () => {
    const settings = gradeSettings({}, 7);
    expect(settings).toMatchObject({ exercises: null, timeoutSeconds: 7, memoryMb: DEFAULT_MEMORY_MB, format: "table", out: null, fresh: false, shard: null });
    expect(settings.jobs).toBeGreaterThanOrEqual(1);
    expect(DEFAULT_MEMORY_MB).toBe(512);
  });

  test("flags as commander hands them over", () => {
    expect(gradeSettings({ exercises: "2-3", jobs: "3", timeout: "2.5", memory: "1024", format: "md", out: "g.md", fresh: true, shard: "1/2" }, 10)).toEqual({
      exercises: [2, 3],
      jobs: 3,
      timeoutSeconds: 2.5,
      memoryMb: 1024,
      format: "md",
      out: "g.md",
      fresh: true,
      shard: { index: 1, count: 2 },
    });
  });

  test.each([
    [{ jobs: "0" }, '--jobs takes a whole number of workers from 1 to 64 (got "0").'],
    [{ jobs: "2.5" }, '--jobs takes a whole number of workers from 1 to 64 (got "2.5").'],
    [{ jobs: "lots" }, '--jobs takes a whole number of workers from 1 to 64 (got "lots").'],
    [{ timeout: "0" }, '--timeout takes a number of seconds greater than 0 and at most 600 (got "0").'],
    [{ timeout: "601" }, '--timeout takes a number of seconds greater than 0 and at most 600 (got "601").'],
    [{ timeout: "1e3" }, '--timeout takes a number of seconds greater than 0 and at most 600 (got "1e3").'],
    [{ memory: "100" }, '--memory takes a number of megabytes from 256 to 16384 (got "100").'],
    [{ format: "xml" }, '--format takes table, json, csv, md, junit, gradescope or html (got "xml").'],
  ])("%j is refused in one sentence", (flags, message) => {
    const err = failure(() => gradeSettings(flags, 10));
    expect(err.message).toBe(message);
    expect(err.exitCode).toBe(2);
  });

  test("--merge names the grading-only flags it cannot take", () => {
    expect(mergeConflicts({ merge: ["a"], format: "md", out: "x", exercises: "1" })).toEqual([]);
    expect(mergeConflicts({ merge: ["a"], jobs: "2", fresh: true, shard: "1/2" })).toEqual(["--jobs", "--fresh", "--shard"]);
    expect(GRADE_ERRORS.mergeOnlyFlags(["--jobs", "--fresh", "--shard"])).toBe(
      "--merge combines finished results, so --jobs, --fresh and --shard cannot be used with it.",
    );
  });
});
