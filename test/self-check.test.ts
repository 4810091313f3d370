import { afterAll, beforeAll, expect, test } from "vitest";
import { labPaths } from "../checker/paths.js";
import { loadExercises } from "../checker/model/exercises.js";
import { Runner } from "../checker/run/runner.js";
import { describeVerdict, selfCheck } from "../checker/self-check/self-check.js";
import { walledRunnerOptions } from "../src/grade/sandbox.js";
import { DEFAULT_MEMORY_MB } from "../src/grade/options.js";

// The lab's promise about its own content: every hidden test can fail, and does on the bugs it names.
// (That every exercise file type-checks is npm run typecheck's: scripts/typecheck-exercises.mjs.)
const paths = labPaths();
const exercises = loadExercises(paths.exercises, paths.solutions);
let runner: Runner;
/** Behind grading's walls, where a correct learner file must pass as it does on the live screen. */
let walled: Runner;

beforeAll(async () => {
  runner = await Runner.create({ timeoutSeconds: 10, maxWorkers: 2 });
  walled = await Runner.create({ timeoutSeconds: 10, maxWorkers: 2, ...walledRunnerOptions(paths.root, exercises, DEFAULT_MEMORY_MB) });
});
afterAll(() => Promise.all([runner.close(), walled.close()]));

test.each(exercises.map((e) => [e.id, e] as const))(
  "%s: the solution passes, the stub fails every test, every mutant is caught by a test named after it, and the solution, the alternatives and the tier 3 reference pass every test behind grading's walls",
  async (_id, exercise) => {
    const [verdict] = await selfCheck(runner, [exercise], { runner: walled, where: "walled" });
    console.log(describeVerdict(verdict!).join("\n"));
    expect(verdict!.problems).toEqual([]);
  },
  120_000,
);
