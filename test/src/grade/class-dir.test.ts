import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import { UserError } from "../../../src/terminal/errors.js";
import { learnersIn, pairsOf, shardOf } from "../../../src/grade/class-dir.js";
import { GRADE_ERRORS } from "../../../src/grade/messages.js";
import { FIXTURE, PATHS, tempDir } from "./support.js";

const exercises = loadExercises(PATHS.exercises, PATHS.solutions);
const learnersDir = join(FIXTURE, "learners");

function thrown(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return (err as Error).message;
  }
  throw new Error("expected a UserError");
}

describe("a class folder", () => {
  test("learners are its folders in code-point order; dot-folders and files are not learners", () => {
    const dir = tempDir("learners");
    for (const name of ["zoe", "Bob", "ada", ".lab-grade", ".git"]) mkdirSync(join(dir, name));
    writeFileSync(join(dir, "roster.csv"), "ada,bob,zoe\n");
    expect(learnersIn(dir)).toEqual(["Bob", "ada", "zoe"]);
  });

  test("no folder, a file, or no learners: one sentence each", () => {
    const dir = tempDir("empty");
    expect(thrown(() => learnersIn(join(dir, "nope")))).toBe(GRADE_ERRORS.noSuchDir(join(dir, "nope")));
    expect(GRADE_ERRORS.noSuchDir("/x")).toBe("There is no folder at /x.");
    writeFileSync(join(dir, "file"), "");
    expect(thrown(() => learnersIn(join(dir, "file")))).toBe(`${join(dir, "file")} is a file; lab grade takes a folder holding one folder per learner.`);
    mkdirSync(join(dir, ".lab-grade"));
    expect(thrown(() => learnersIn(dir))).toBe(`${dir} holds no learner folders: put one folder per learner in it, each laid out like a workspace.`);
  });

  test("one pair per learner × exercise, with the file where a workspace keeps it", () => {
    const pairs = pairsOf(learnersDir, learnersIn(learnersDir), exercises);
    expect(pairs.map((p) => p.key)).toEqual([
      "ada/01-adder",
      "ada/02-greeter",
      "ben/01-adder",
      "ben/02-greeter",
      "cy/01-adder",
      "cy/02-greeter",
      "dee/01-adder",
      "dee/02-greeter",
      "eve/01-adder",
      "eve/02-greeter",
    ]);
    expect(pairs[1]).toMatchObject({ learner: "ada", file: join(learnersDir, "ada/02-greeter.ts"), relFile: "ada/02-greeter.ts" });
  });
});

describe("a learner's whole lab folder handed in", () => {
  const where = (dir: string, learner: string) => pairsOf(dir, [learner], exercises).map((p) => [p.learnerDir, p.relFile]);

  test("its workspace/ holds the files when the learner's folder holds none of them", () => {
    const dir = tempDir("handed-in");
    mkdirSync(join(dir, "ada/workspace"), { recursive: true });
    writeFileSync(join(dir, "ada/workspace/02-greeter.ts"), "");
    expect(where(dir, "ada")).toEqual([
      [join(dir, "ada/workspace"), "ada/workspace/01-adder.ts"],
      [join(dir, "ada/workspace"), "ada/workspace/02-greeter.ts"],
    ]);
  });

  test("a file of the learner's own folder wins over workspace/, and a workspace link is not followed", () => {
    const dir = tempDir("handed-in");
    mkdirSync(join(dir, "ben/workspace"), { recursive: true });
    writeFileSync(join(dir, "ben/01-adder.ts"), "");
    writeFileSync(join(dir, "ben/workspace/02-greeter.ts"), "");
    expect(where(dir, "ben").map(([, rel]) => rel)).toEqual(["ben/01-adder.ts", "ben/02-greeter.ts"]);
    mkdirSync(join(dir, "mal"));
    symlinkSync(join(dir, "ben/workspace"), join(dir, "mal/workspace"));
    expect(where(dir, "mal").map(([, rel]) => rel)).toEqual(["mal/01-adder.ts", "mal/02-greeter.ts"]);
  });
});

describe("--shard i/n", () => {
  const keys = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `learner-${String(i).padStart(3, "0")}/01-x` }));

  test.each([
    [10, 3],
    [7, 7],
    [2, 5],
    [1000, 16],
  ])("%i pairs in %i shards: disjoint, together all of them, sizes within one", (size, count) => {
    const pairs = keys(size);
    const shards = Array.from({ length: count }, (_, i) => shardOf(pairs, { index: i + 1, count }).map((p) => p.key));
    expect(shards.flat().sort()).toEqual(pairs.map((p) => p.key).sort());
    expect(new Set(shards.flat()).size).toBe(size);
    const sizes = shards.map((s) => s.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  test("the same slice whatever order the pairs were listed in", () => {
    const pairs = keys(20);
    const reversed = [...pairs].reverse();
    expect(shardOf(reversed, { index: 2, count: 3 })).toEqual(shardOf(pairs, { index: 2, count: 3 }));
    expect(shardOf(pairs, null)).toBe(pairs);
  });
});
