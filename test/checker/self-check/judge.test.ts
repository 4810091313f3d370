import { expect, test } from "vitest";
import type { Exercise } from "../../../checker/model/exercises.js";
import type { RunResult, TestOutcome } from "../../../checker/model/result.js";
import { judge, SELF_CHECK_MESSAGES } from "../../../checker/self-check/self-check.js";

// judge is a pure function of the runs, so its rules are checked here on runs written by hand.

const SUM = "adds two numbers (off-by-one bug)";
const SIGN = "keeps the sign (lost-sign bug)";
const ZERO = "adds zero";

const exercise = (alternatives: string[] = []): Exercise => ({
  id: "01-adder",
  number: 1,
  slug: "adder",
  title: "Adder",
  targetLines: 3,
  tiers: [1, 3],
  hints: ["add"],
  bugs: { "off-by-one": "adds one too many", "lost-sign": "drops the sign" },
  questions: [],
  dir: "/lab/exercises/01-adder",
  built: "/lab/dist/exercises/01-adder",
  fileName: "01-adder.ts",
  lesson: "/lab/exercises/01-adder/lesson.md",
  stub: "/lab/exercises/01-adder/stub.ts",
  hiddenTest: "/lab/exercises/01-adder/hidden.test.ts",
  solution: "/lab/solutions/01-adder.ts",
  references: { 3: "/lab/exercises/01-adder/reference/tier3.ts" },
  mutants: [
    {
      name: "lost-sign",
      bug: "lost-sign",
      source: "/lab/exercises/01-adder/mutants/lost-sign.diff",
      file: "/lab/dist/exercises/01-adder/mutants/lost-sign.ts",
    },
    {
      name: "off-by-one",
      bug: "off-by-one",
      source: "/lab/exercises/01-adder/mutants/off-by-one.diff",
      file: "/lab/dist/exercises/01-adder/mutants/off-by-one.ts",
    },
  ],
  alternatives: alternatives.map((f) => `/lab/exercises/01-adder/alternatives/${f}`),
});

/** A run in which the `failing` tests fail and every other one of `names` passes. */
function run(failing: string[] = [], error: RunResult["error"] = null, names = [SUM, SIGN, ZERO]): RunResult {
  const tests: TestOutcome[] = error
    ? []
    : names.map((name) => ({
        name,
        state: failing.includes(name) ? "failed" : "passed",
        ms: 1,
        failure: failing.includes(name) ? { message: `expected ${name} to pass` } : null,
        bug: null,
      }));
  const passed = tests.filter((t) => t.state === "passed").length;
  return { exercise: "01-adder", file: "x.ts", status: "passed", tests, passed, failed: tests.length - passed, total: tests.length, error, ms: 1 };
}

const stub = run([SUM, SIGN, ZERO]);

test("every mutant caught by a test carrying its name, and every correct file green: no problems", () => {
  const two = [SUM, SIGN];
  const verdict = judge(exercise(["by-reduce.ts"]), {
    solution: run([], null, two),
    stub: run(two, null, two),
    mutants: [run([SIGN], null, two), run([SUM], null, two)],
    reference: run([], null, two),
    alternatives: [run([], null, two)],
  });

  expect(verdict.problems).toEqual([]);
  expect(verdict.reference).toEqual({ file: "reference/tier3.ts", passed: 2, total: 2 });
  expect(verdict.alternatives).toEqual([{ file: "alternatives/by-reduce.ts", passed: 2, total: 2 }]);
});

test("a mutant killed only by tests named after other bugs is a problem", () => {
  const verdict = judge(exercise(), { solution: run(), stub, mutants: [run([SUM, ZERO]), run([SUM])] });

  expect(verdict.problems).toEqual([SELF_CHECK_MESSAGES.mutantUnnamed("lost-sign", "lost-sign")]);
  expect(SELF_CHECK_MESSAGES.mutantUnnamed("lost-sign", "lost-sign")).toBe(
    'mutant lost-sign is caught only by tests named after other bugs: no test ending "(lost-sign bug)" fails on it, so the screen would explain the wrong mistake',
  );
});

test("a test that is the only one named after a mutant has earned its place, even when others kill that mutant too", () => {
  // SIGN is never the only killer of lost-sign (ZERO kills it as well), but it is the only test named after it.
  const verdict = judge(exercise(), { solution: run(), stub, mutants: [run([SIGN, ZERO]), run([SUM, ZERO])] });

  expect(verdict.uniqueKills[SIGN]).toEqual([]);
  expect(verdict.problems).toEqual([SELF_CHECK_MESSAGES.testKillsNothingAlone(ZERO)]);
  expect(SELF_CHECK_MESSAGES.testKillsNothingAlone(ZERO)).toBe(
    '"adds zero" is neither the only test to catch a mutant nor the only one named after it, so deleting it would go unnoticed',
  );
});

test("a tier 3 reference that fails a test the solution passes is a problem", () => {
  const verdict = judge(exercise(), { solution: run(), stub, mutants: [run([SIGN]), run([SUM])], reference: run([ZERO]) });

  expect(verdict.problems).toEqual([SELF_CHECK_MESSAGES.correctFileFails("reference/tier3.ts", ZERO, "expected adds zero to pass")]);
  expect(verdict.problems[0]).toBe('reference/tier3.ts must pass every hidden test but fails "adds zero": expected adds zero to pass');
});

test("an alternative that fails a test or does not load is a problem, named by its file", () => {
  const broken = { kind: "syntax" as const, message: "Syntax error in half.ts:1:9: Unexpected token" };
  const verdict = judge(exercise(["half.ts", "shifted.ts"]), {
    solution: run(),
    stub,
    mutants: [run([SIGN]), run([SUM])],
    alternatives: [run([], broken), run([SUM])],
  });

  expect(verdict.problems).toEqual([
    SELF_CHECK_MESSAGES.correctFileError("alternatives/half.ts", broken.message),
    SELF_CHECK_MESSAGES.correctFileFails("alternatives/shifted.ts", SUM, `expected ${SUM} to pass`),
  ]);
  expect(verdict.problems[0]).toBe("alternatives/half.ts must pass every hidden test but does not run: Syntax error in half.ts:1:9: Unexpected token");
});

test("a live check is judged among the live checks: repeating a staged test's bug for a real model is its place, repeating another live check's is not", () => {
  const LIVE_SIGN = "live: keeps the sign of whatever it is given (lost-sign bug)";
  const LIVE_ECHO = "live: still keeps the sign";
  const names = [SUM, SIGN, LIVE_SIGN, LIVE_ECHO];
  const verdict = judge(exercise(), {
    solution: run([], null, names),
    stub: run(names, null, names),
    // SIGN and LIVE_SIGN both catch lost-sign; so does LIVE_ECHO, which is named after nothing.
    mutants: [run([SIGN, LIVE_SIGN, LIVE_ECHO], null, names), run([SUM], null, names)],
  });

  expect(verdict.uniqueKills[SIGN]).toEqual(["lost-sign"]);
  expect(verdict.problems).toEqual([SELF_CHECK_MESSAGES.testKillsNothingAlone(LIVE_ECHO)]);
});
