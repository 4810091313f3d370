import { join, relative } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { selfCheck, SELF_CHECK_MESSAGES } from "../../../checker/self-check/self-check.js";
import { Runner } from "../../../checker/run/runner.js";
import { fixtureCopy, fixtureSource } from "./fixture-copy.js";

let runner: Runner;
beforeAll(async () => {
  runner = await Runner.create({ timeoutSeconds: 5, maxWorkers: 2 });
});
afterAll(() => runner.close());

const ADDS = "adds two numbers (off-by-one bug)";
const CJS = "an error thrown by the test's client is an instance of the SDK class the file imports (cjs-copy bug)";
const TESTS = {
  [ADDS]: "off-by-one",
  "asks the model to echo the sum (no-echo bug)": "no-echo",
  [CJS]: "cjs-copy",
} as const;

const solution = fixtureSource("solutions/01-adder.ts");
/** The fixture's solution, but it never recognises a rate limit: wrong for one test only. */
const blind = solution.replace("return err instanceof Anthropic.RateLimitError;", "return false;");
const WHY_BLIND = "expected false to be true // Object.is equality";

test("the intact fixture passes: solution green, stub red, each mutant killed by the test that names it, the alternative green", async () => {
  const [verdict] = await selfCheck(runner, [fixtureCopy()]);
  expect(verdict!.problems).toEqual([]);
  expect(Object.fromEntries(verdict!.mutants.map((m) => [m.bug, m.killedBy]))).toEqual({
    "cjs-copy": [CJS],
    "no-echo": ["asks the model to echo the sum (no-echo bug)"],
    "off-by-one": [ADDS],
  });
  expect(verdict!.alternatives).toEqual([{ file: "alternatives/sum-by-reduce.ts", passed: 3, total: 3 }]);
  expect(verdict!.reference).toBeNull();
});

test.each(Object.entries(TESTS))("deleting %j lets its mutant survive and fails the self-check", async (name, bug) => {
  const [verdict] = await selfCheck(runner, [fixtureCopy({ withoutTest: name })]);
  expect(verdict!.problems).toEqual([SELF_CHECK_MESSAGES.mutantSurvives(bug)]);
});

test("a mutant caught only by a test named after another bug fails the self-check", async () => {
  const [verdict] = await selfCheck(runner, [fixtureCopy({ renameTest: [ADDS, "adds two numbers"] })]);
  expect(verdict!.mutants.find((m) => m.bug === "off-by-one")!.killedBy).toEqual(["adds two numbers"]);
  expect(verdict!.problems).toEqual([SELF_CHECK_MESSAGES.mutantUnnamed("off-by-one", "off-by-one")]);
});

test("a tier 3 reference that fails a hidden test fails the self-check", async () => {
  const exercise = fixtureCopy({ tiers: [1, 3], files: { "reference/tier3.ts": blind } });
  const [verdict] = await selfCheck(runner, [exercise]);
  expect(verdict!.reference).toEqual({ file: "reference/tier3.ts", passed: 2, total: 3 });
  expect(verdict!.problems).toEqual([SELF_CHECK_MESSAGES.correctFileFails("reference/tier3.ts", CJS, WHY_BLIND)]);
});

test("a correct tier 3 reference passes the self-check", async () => {
  const [verdict] = await selfCheck(runner, [fixtureCopy({ tiers: [1, 3], files: { "reference/tier3.ts": solution } })]);
  expect(verdict!.problems).toEqual([]);
  expect(verdict!.reference).toEqual({ file: "reference/tier3.ts", passed: 3, total: 3 });
});

test("an alternative that fails a hidden test, or does not load, fails the self-check", async () => {
  const exercise = fixtureCopy({
    files: { "alternatives/blind.ts": blind, "alternatives/unfinished.ts": "export const add = (a: number, b: number) => a +;\n" },
  });
  const [verdict] = await selfCheck(runner, [exercise]);
  expect(verdict!.alternatives.map((a) => a.file)).toEqual(["alternatives/blind.ts", "alternatives/sum-by-reduce.ts", "alternatives/unfinished.ts"]);
  expect(verdict!.problems).toEqual([
    SELF_CHECK_MESSAGES.correctFileFails("alternatives/blind.ts", CJS, WHY_BLIND),
    SELF_CHECK_MESSAGES.correctFileError(
      "alternatives/unfinished.ts",
      `Syntax error in ${join(exercise.dir, "alternatives/unfinished.ts")}:1:49: Unexpected token`,
    ),
  ]);
});

test("a stub that already passes a test is reported, because that test cannot fail", async () => {
  const stubSource = solution.replace(
    /export async function echoSum[\s\S]*$/,
    'export async function echoSum(): Promise<string> {\n  throw new Error("not implemented");\n}\nexport async function isRateLimit(): Promise<boolean> {\n  throw new Error("not implemented");\n}\n',
  );
  const [verdict] = await selfCheck(runner, [fixtureCopy({ stubSource })]);
  expect(verdict!.problems).toEqual([SELF_CHECK_MESSAGES.stubPasses(ADDS)]);
});

test("given a second runner, the files that must pass everything run there, the solution once more among them, and are named with where they ran", async () => {
  const exercise = fixtureCopy({ tiers: [1, 3], files: { "reference/tier3.ts": solution, "alternatives/blind.ts": blind } });
  const ranOn = { here: [] as string[], there: [] as string[] };
  const recording = (into: string[]): Pick<Runner, "runMany"> => ({
    runMany: (requests) => (into.push(...requests.map((r) => relative(exercise.dir, r.implFile))), runner.runMany(requests)),
  });
  const [verdict] = await selfCheck(recording(ranOn.here), [exercise], { runner: recording(ranOn.there), where: "walled" });
  expect(ranOn.there).toEqual([relative(exercise.dir, exercise.solution), "alternatives/blind.ts", "alternatives/sum-by-reduce.ts", "reference/tier3.ts"]);
  expect(ranOn.here.filter((file) => /^(alternatives|reference)\//.test(file))).toEqual([]);
  expect(verdict!.reference).toEqual({ file: "reference/tier3.ts (walled)", passed: 3, total: 3 });
  expect(verdict!.problems).toEqual([SELF_CHECK_MESSAGES.correctFileFails("alternatives/blind.ts (walled)", CJS, WHY_BLIND)]);
});
