import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import { labPaths } from "../../../checker/paths.js";
import { forkFirstWorker, sparesFor } from "../../../checker/run/first-worker.js";
import { Runner, type RunnerOptions } from "../../../checker/run/runner.js";
import { guessedWorkerOptions } from "../../../checker/run/vitest-internals.js";
import { walledRunnerOptions } from "../../../src/grade/sandbox.js";

const fixture = join(import.meta.dirname, "../../fixtures/class");
const [adder] = loadExercises(join(fixture, "exercises"), join(fixture, "solutions"));

/** The first run of a runner made with `options` on `spares`, and whether it took the worker forked ahead. */
async function firstRun(options: RunnerOptions, spares = forkFirstWorker(options)) {
  const runner = await Runner.create(options, spares);
  try {
    const request = { exercise: adder!, implFile: adder!.solution };
    // Walled runs go through runMany, on a copy of the hidden test, as lab check and grading run them.
    const result = options.scratchDir ? (await runner.runMany([request]))[0]! : await runner.run(request);
    return { status: result.status, error: result.error, taken: spares.aheadTaken };
  } finally {
    await runner.close();
  }
}

// What vite sets in the environment of the process that creates vitest, when they are not set.
const VITE_SETS = ["NODE_ENV", "MODE", "DEV", "PROD", "BASE_URL"];
let saved: [string, string | undefined][] = [];
beforeEach(() => {
  saved = VITE_SETS.map((name) => [name, process.env[name]]);
  for (const name of VITE_SETS) delete process.env[name];
});
afterEach(() => {
  for (const [name, value] of saved)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});

test("the worker forked before vitest is loaded is the one the first run takes: vitest asks for the guessed command line and environment", async () => {
  expect(await firstRun({ timeoutSeconds: 10 })).toEqual({ status: "passed", error: null, taken: true });
});

test("walled as lab check runs a file outside the workspace, the guess holds too: the walls' flags and environment are the runner's own", async () => {
  const options = walledRunnerOptions(labPaths().root, [adder!], 512);
  expect(await firstRun(options)).toEqual({ status: "passed", error: null, taken: true });
});

test("a worker forked for other options is not taken: it is killed, and the first run gets a worker of its own", async () => {
  const options = { timeoutSeconds: 10 };
  const spares = sparesFor(options);
  spares.forkAhead(guessedWorkerOptions(["--max-old-space-size=300"]));
  expect(await firstRun(options, spares)).toEqual({ status: "passed", error: null, taken: false });
});

test("creating a runner leaves this process's environment as it found it: a screen loaded after it still gets React's production build", async () => {
  const before = { ...process.env };
  const runner = await Runner.create({ timeoutSeconds: 10 });
  const after = { ...process.env };
  await runner.close();
  expect(after).toEqual(before);
});
