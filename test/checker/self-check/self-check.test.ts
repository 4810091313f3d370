import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { selfCheck, SELF_CHECK_MESSAGES } from "../../../checker/self-check/self-check.js";
import { Runner } from "../../../checker/run/runner.js";
import { fixtureCopy } from "./fixture-copy.js";

let runner: Runner;
beforeAll(async () => {
  runner = await Runner.create({ timeoutSeconds: 5, maxWorkers: 2 });
});
afterAll(() => runner.close());

const TESTS = {
  "adds two numbers (off-by-one bug)": "off-by-one",
  "asks the model to echo the sum (no-echo bug)": "no-echo",
  "an error thrown by the test's client is an instance of the SDK class the file imports (cjs-copy bug)": "cjs-copy",
} as const;

test("the intact fixture passes: solution green, stub red, each mutant killed by the test that names it", async () => {
  const [verdict] = await selfCheck(runner, [fixtureCopy()]);
  expect(verdict!.problems).toEqual([]);
  expect(Object.fromEntries(verdict!.mutants.map((m) => [m.bug, m.killedBy]))).toEqual({
    "cjs-copy": ["an error thrown by the test's client is an instance of the SDK class the file imports (cjs-copy bug)"],
    "no-echo": ["asks the model to echo the sum (no-echo bug)"],
    "off-by-one": ["adds two numbers (off-by-one bug)"],
  });
});

test.each(Object.entries(TESTS))("deleting %j lets its mutant survive and fails the self-check", async (name, bug) => {
  const [verdict] = await selfCheck(runner, [fixtureCopy({ withoutTest: name })]);
  expect(verdict!.problems).toEqual([SELF_CHECK_MESSAGES.mutantSurvives(bug)]);
});

test("a stub that already passes a test is reported, because that test cannot fail", async () => {
  const solution = readFileSync(fixtureCopy().solution, "utf8");
  const stubSource = solution.replace(/export async function echoSum[\s\S]*$/, 'export async function echoSum(): Promise<string> {\n  throw new Error("not implemented");\n}\nexport async function isRateLimit(): Promise<boolean> {\n  throw new Error("not implemented");\n}\n');
  const [verdict] = await selfCheck(runner, [fixtureCopy({ stubSource })]);
  expect(verdict!.problems).toEqual([SELF_CHECK_MESSAGES.stubPasses("adds two numbers (off-by-one bug)")]);
});
