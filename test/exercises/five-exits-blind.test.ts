/**
 * Exercise 12's verdicts, tried from outside: correct files and buggy ones written blind
 * from the lesson (by a helper who never saw the hidden tests) go through the same runner
 * as `lab check 12 --file`. Every alternative must pass every test; every blind mutant
 * must fail, and when its id is one of the exercise's bugs, on the test named after it.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { labPaths } from "../../checker/paths.js";
import { loadExercises } from "../../checker/model/exercises.js";
import { Runner } from "../../checker/run/runner.js";

const paths = labPaths();
const exercise = loadExercises(paths.exercises, paths.solutions).find((e) => e.number === 12)!;
const tsFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => join(dir, f));
const alternatives = tsFiles(join(exercise.dir, "alternatives"));
const blindMutants = tsFiles(join(exercise.dir, "mutants", "blind"));

let runner: Runner;
let results: Awaited<ReturnType<Runner["runMany"]>>;
beforeAll(async () => {
  runner = await Runner.create({ timeoutSeconds: 20, maxWorkers: 2 });
  results = await runner.runMany([...alternatives, ...blindMutants].map((implFile) => ({ exercise, implFile })));
}, 240_000);
afterAll(() => runner.close());

test("there are blind files to try", () => {
  expect(alternatives.length).toBeGreaterThanOrEqual(3);
  expect(blindMutants.length).toBeGreaterThanOrEqual(8);
});

test.each(alternatives.map((file, i) => [file.split("/").at(-1)!, i] as const))("alternative %s passes every hidden test", (_name, i) => {
  const result = results[i]!;
  expect(result.error).toBeNull();
  expect(result.tests.filter((t) => t.state !== "passed").map((t) => `${t.name}: ${t.failure?.message ?? t.state}`)).toEqual([]);
  expect(result.passed).toBe(result.total);
});

test.each(blindMutants.map((file, i) => [file.split("/").at(-1)!.slice(0, -3), alternatives.length + i] as const))(
  "blind mutant %s fails, on the test named after it",
  (bug, i) => {
    const result = results[i]!;
    const failed = result.tests.filter((t) => t.state !== "passed").map((t) => t.name);
    expect(result.tests.length, "it loaded and ran").toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    if (bug in exercise.bugs)
      expect(
        failed.some((name) => name.endsWith(`(${bug} bug)`)),
        `failed: ${failed.join(" | ")}`,
      ).toBe(true);
  },
);
