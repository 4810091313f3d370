import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, test } from "vitest";
import type { RunResult, TestOutcome } from "../../../checker/model/result.js";
import { exportedNames, inLearnerWords, LEARNER_WORDS, missingExports } from "../../../src/report/learner-words.js";
import { describeRun } from "../../../src/report/plain-run.js";
import { tempDir } from "../../support/temp-dir.js";

const exercise = { stub: resolve(import.meta.dirname, "../../../exercises/01-tool-loop/stub.ts") };
const solution = readFileSync(resolve(import.meta.dirname, "../../../solutions/01-tool-loop.ts"), "utf8");
const bug = { id: "split-results", summary: "Results travel in one user message each." };
const failing = (name: string, message: string): TestOutcome => ({ name, state: "failed", ms: 1, failure: { message }, bug });
const run = (file: string, tests: TestOutcome[]): RunResult => ({
  exercise: "01-tool-loop",
  file,
  status: "failed",
  tests,
  passed: 0,
  failed: tests.length,
  total: tests.length,
  error: null,
  ms: 5,
});

test("the untouched stub is 'not started yet', with no bug explanation the learner never wrote", () => {
  const said = inLearnerWords(
    run(exercise.stub, [failing("a (split-results bug)", "not implemented"), failing("b (no-step-cap bug)", "Error: not implemented")]),
    exercise,
  );
  expect(said.tests.map((t) => [t.failure?.message, t.bug])).toEqual([
    [LEARNER_WORDS.notStarted, null],
    [LEARNER_WORDS.notStarted, null],
  ]);
  expect(describeRun(said).join("\n")).not.toContain("why it matters");
});

test("a missing export is said once, as the run's error, and no test row carries a bug explanation", () => {
  const file = join(tempDir("words"), "01-tool-loop.ts");
  writeFileSync(file, solution.replace("export async function agent(", "export async function runAgent("));
  expect(missingExports(exercise, file)).toEqual(["agent"]);
  const tests = Array.from({ length: 8 }, (_, i) => failing(`test ${i} (split-results bug)`, "agent is not a function"));
  const text = describeRun(inLearnerWords(run(file, tests), exercise)).join("\n");
  expect(text.split(LEARNER_WORDS.missingExports(["agent"])).length - 1).toBe(1);
  expect(LEARNER_WORDS.missingExports(["agent"])).toBe(
    'Your file does not export "agent", which the hidden tests import by that name: the tests that use it fail until it does.',
  );
  expect(text).not.toContain("why it matters");
  expect(text).not.toContain("agent is not a function");
});

test("a failure of real code is left as the test said it, bug explanation included", () => {
  const file = join(tempDir("words"), "01-tool-loop.ts");
  writeFileSync(file, solution);
  const result = run(file, [failing("a (split-results bug)", "expected 5 to be 3")]);
  expect(inLearnerWords(result, exercise)).toBe(result);
});

test("exported names: functions, constants, classes and specifiers count; types do not", () => {
  const names = exportedNames(
    "export type T = 1;\nexport interface I {}\nexport function f() {}\nexport const a = 1, b = 2;\nexport class C {}\nconst d = 1;\nexport { d as e };\nexport type { T as U };\n",
  );
  expect([...names!].sort()).toEqual(["C", "a", "b", "e", "f"]);
});
