import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { labPaths } from "../checker/paths.js";
import { loadExercises } from "../checker/model/exercises.js";
import { Runner } from "../checker/run/runner.js";
import { correctFilesPass, describeVerdict, selfCheck } from "../checker/self-check/self-check.js";
import { walledRunnerOptions } from "../src/grade/sandbox.js";
import { DEFAULT_MEMORY_MB } from "../src/grade/options.js";

// The lab's promise about its own content: every hidden test can fail, and does on the bugs it names.
const paths = labPaths();
const exercises = loadExercises(paths.exercises, paths.solutions);
let runner: Runner;
/** Behind grading's walls, where a correct learner file must pass as it does on the live screen. */
let walled: Runner;
const testsOf = new Map<string, string[]>();

beforeAll(async () => {
  runner = await Runner.create({ timeoutSeconds: 10, maxWorkers: 2 });
  walled = await Runner.create({ timeoutSeconds: 10, maxWorkers: 2, ...walledRunnerOptions(paths.root, exercises, DEFAULT_MEMORY_MB) });
});
afterAll(() => Promise.all([runner.close(), walled.close()]));

test.each(exercises.map((e) => [e.id, e] as const))(
  "%s: the solution passes, the stub fails every test, every mutant is caught by a test named after it, and every correct file passes",
  async (_id, exercise) => {
    const [verdict] = await selfCheck(runner, [exercise]);
    console.log(describeVerdict(verdict!).join("\n"));
    expect(verdict!.problems).toEqual([]);
    testsOf.set(exercise.id, verdict!.tests);
  },
  120_000,
);

test.each(exercises.map((e) => [e.id, e] as const))(
  "%s: the solution, the alternatives and the tier 3 reference pass every test behind grading's walls too",
  async (id, exercise) => {
    const [outcome] = await correctFilesPass(walled, [exercise], "walled");
    expect(outcome!.problems).toEqual([]);
    expect(outcome!.tests, "the same tests ran").toEqual(testsOf.get(id) ?? outcome!.tests);
  },
  120_000,
);

test("stubs, solutions, mutants and tier 2/3 references type-check", () => {
  const tsc = join(paths.root, "node_modules/typescript/bin/tsc");
  const result = spawnSync(process.execPath, [tsc, "--noEmit", "-p", join(paths.exercises, "tsconfig.json")], { encoding: "utf8" });
  expect(result.stdout + result.stderr).toBe("");
  expect(result.status).toBe(0);
}, 120_000);
