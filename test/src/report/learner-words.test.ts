import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, test } from "vitest";
import type { RunResult, TestOutcome } from "../../../checker/model/result.js";
import { exportedNames, inLearnerWords, LEARNER_WORDS, missingExports, plainFailureMessage } from "../../../src/report/learner-words.js";
import { describeRun, OUTPUT_LINE_CHARS } from "../../../src/report/plain-run.js";
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
  expect(describeRun(said).join("\n")).not.toContain("guards against");
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
  expect(text).not.toContain("guards against");
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

test("an untouched stub is 'not started yet' on every failing test, one that caught the throw and checked something else included", () => {
  const file = join(tempDir("words"), "01-tool-loop.ts");
  writeFileSync(file, `// my notes\n${readFileSync(exercise.stub, "utf8")}`);
  const said = inLearnerWords(
    run(file, [failing("a (split-results bug)", "expected [] to have a length of 1 but got +0"), failing("b (no-step-cap bug)", "not implemented")]),
    exercise,
  );
  expect(said.tests.map((t) => t.failure?.message)).toEqual([LEARNER_WORDS.notStarted, LEARNER_WORDS.notStarted]);
});

test("a started file: only a test whose failure shows the stub's throw is 'not started yet'; the rest keep their words, in plain words", () => {
  const file = join(tempDir("words"), "01-tool-loop.ts");
  writeFileSync(file, solution);
  const caught: TestOutcome = {
    ...failing("a (split-results bug)", "the caller's error: expected Error: not implemented to be TypeError: no // Object.is equality"),
    failure: {
      message: "the caller's error: expected Error: not implemented to be TypeError: no // Object.is equality",
      received: 'Error { "message": "not implemented" }',
    },
  };
  const said = inLearnerWords(run(file, [caught, failing("b (no-step-cap bug)", "expected 6060 to be greater than 6060")]), exercise);
  expect(said.tests.map((t) => t.failure?.message)).toEqual([LEARNER_WORDS.notStarted, "found 6060; it should be more than 6060"]);
});

test("a stub whose placeholders say something else (exercise 11's TODO: run) is recognised by its own throws", () => {
  const dir = tempDir("words");
  const stub = join(dir, "stub.ts");
  writeFileSync(stub, 'export function run() {\n  throw new Error("TODO: run");\n}\nexport function check() {\n  throw new Error("TODO: check");\n}\n');
  const half = join(dir, "half.ts");
  writeFileSync(half, 'export function run() {\n  return 1;\n}\nexport function check() {\n  throw new Error("TODO: check");\n}\n');
  const tests = [failing("a (split-results bug)", "expected 1 to be 2 // Object.is equality"), failing("b (no-step-cap bug)", "TODO: check")];
  expect(inLearnerWords(run(stub, tests), { stub }).tests.map((t) => t.failure?.message)).toEqual([LEARNER_WORDS.notStarted, LEARNER_WORDS.notStarted]);
  expect(inLearnerWords(run(half, tests), { stub }).tests.map((t) => t.failure?.message)).toEqual(["found 1; it should equal 2", LEARNER_WORDS.notStarted]);
});

test("an assertion marked as its bug's signature reads without the mark; a failure that is not the bug's tells no bug", () => {
  expect(plainFailureMessage("spent before the last call (budget-checked-late bug): expected 0.02 to be less than 0.01")).toBe(
    "spent before the last call: found 0.02; it should be less than 0.01",
  );
  const file = join(tempDir("words"), "01-tool-loop.ts");
  writeFileSync(file, solution);
  const other: TestOutcome = {
    ...failing("a (split-results bug)", "how it ended: expected 'failed' to be 'done' // Object.is equality"),
    failure: { message: "how it ended: expected 'failed' to be 'done' // Object.is equality", bugSignature: false },
  };
  const signature: TestOutcome = {
    ...failing("b (split-results bug)", "the ids (split-results bug): expected 1 to be 2 // Object.is equality"),
    failure: { message: "the ids (split-results bug): expected 1 to be 2 // Object.is equality", bugSignature: true },
  };
  const text = describeRun(inLearnerWords(run(file, [other, signature]), exercise)).join("\n");
  expect(text).toContain("  FAIL  a (split-results bug)\n        checked: how it ended\n        found: 'failed'; it should equal 'done'\n  FAIL  b");
  expect(text).toContain(
    "        checked: the ids\n        found: 1; it should equal 2\n        this test guards against the split-results bug: Results travel in one user message each.",
  );
});

test("what a test printed follows its row in lab check's lines, passing or failing, cut at 40 lines with the rest counted; the JSON keeps it whole", () => {
  const file = join(tempDir("words"), "01-tool-loop.ts");
  writeFileSync(file, solution);
  const long = `${Array.from({ length: 45 }, (_, i) => `row ${i + 1}`).join("\n")}\n`;
  const tests: TestOutcome[] = [
    { name: "a", state: "passed", ms: 2, failure: null, bug: null, output: "DEBUG hitRate NaN\n" },
    { ...failing("b (split-results bug)", "expected 1 to be 2 // Object.is equality"), output: long },
  ];
  const said = inLearnerWords(run(file, tests), exercise);
  const lines = describeRun(said);
  expect(lines.slice(0, 3)).toEqual(["  PASS  a (2 ms)", "        printed:", "        │ DEBUG hitRate NaN"]);
  const b = lines.indexOf("        printed:", 3);
  expect(lines.slice(b + 1, b + 3)).toEqual(["        │ row 1", "        │ row 2"]);
  expect(lines[b + 40]).toBe("        │ row 40");
  expect(lines[b + 41]).toBe("        │ … 5 more lines printed: lab check --json has all of it");
  expect(JSON.parse(JSON.stringify(said)).tests[1].output).toBe(long);
});

test("what the test itself printed, its report, follows the row labelled apart from the learner's, passing or failing, framing blank lines left out; the JSON keeps it whole", () => {
  const file = join(tempDir("words"), "01-tool-loop.ts");
  writeFileSync(file, solution);
  const sweep = "\nThreshold sweep over the staged pairs:\nthreshold   hit rate (of 25)\n    0.880     0.92 (23)\n\n";
  const tests: TestOutcome[] = [
    { name: "a", state: "passed", ms: 2, failure: null, bug: null, report: sweep },
    { ...failing("b", "expected 1 to be 2 // Object.is equality"), output: "DEBUG b\n", report: "staged hit rate 0.4\n" },
  ];
  const said = inLearnerWords(run(file, tests), exercise);
  expect(describeRun(said)).toEqual([
    "  PASS  a (2 ms)",
    "        the test's report:",
    "        │ Threshold sweep over the staged pairs:",
    "        │ threshold   hit rate (of 25)",
    "        │     0.880     0.92 (23)",
    "  FAIL  b",
    "        found: 1; it should equal 2",
    "        this test guards against the split-results bug: Results travel in one user message each.",
    "        printed:",
    "        │ DEBUG b",
    "        the test's report:",
    "        │ staged hit rate 0.4",
    "",
    "0 passed, 2 failed",
  ]);
  expect(JSON.parse(JSON.stringify(said)).tests[0].report).toBe(sweep);
});

test("a printed line longer than lab check prints is cut, the characters left out counted; the JSON keeps it whole", () => {
  const file = join(tempDir("words"), "01-tool-loop.ts");
  writeFileSync(file, solution);
  const prompt = `system: ${"x".repeat(6_049)}`;
  const tests: TestOutcome[] = [{ name: "a", state: "passed", ms: 2, failure: null, bug: null, report: `timestamp in system:\n${prompt}\n` }];
  const said = inLearnerWords(run(file, tests), exercise);
  const lines = describeRun(said);
  expect(lines.slice(0, 3)).toEqual(["  PASS  a (2 ms)", "        the test's report:", "        │ timestamp in system:"]);
  expect(lines[3]).toBe(`        │ ${prompt.slice(0, OUTPUT_LINE_CHARS)}… 5,657 more characters on this line: lab check --json has all of it`);
  expect(JSON.parse(JSON.stringify(said)).tests[0].report).toContain(prompt);
});
