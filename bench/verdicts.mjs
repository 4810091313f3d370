// node bench/verdicts.mjs [--walled] [--out FILE] [N …] — every test's verdict on every file the
// self-check runs (solution, stub, each mutant, blind ones included, each alternative, tier 3),
// as one JSON object: "NN-slug/file" → { "test name": "passed" | "failed" | …, "(file)": error kind }.
// Run it on two checkouts and diff the outputs: a change to how learner code is reached must
// leave every verdict as it was.
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { labPaths } from "../dist/checker/paths.js";
import { loadExercises } from "../dist/checker/model/exercises.js";
import { Runner } from "../dist/checker/run/runner.js";
import { DEFAULT_MEMORY_MB } from "../dist/src/grade/options.js";
import { walledRunnerOptions } from "../dist/src/grade/sandbox.js";

const args = process.argv.slice(2);
const walledRun = args.includes("--walled");
const outAt = args.indexOf("--out");
const out = outAt >= 0 ? args[outAt + 1] : null;
const only = args.filter((a, i) => !a.startsWith("--") && i !== outAt + 1);
const paths = labPaths();
const exercises = loadExercises(paths.exercises, paths.solutions).filter((e) => only.length === 0 || only.some((key) => e.id.startsWith(key.padStart(2, "0"))));

const tsFiles = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true })
        .filter((f) => String(f).endsWith(".ts"))
        .map((f) => join(dir, String(f)))
    : [];
const runner = await Runner.create({
  timeoutSeconds: 20,
  maxWorkers: 2,
  ...(walledRun ? walledRunnerOptions(paths.root, exercises, DEFAULT_MEMORY_MB) : {}),
});
const verdicts = {};
const started = performance.now();
for (const exercise of exercises) {
  const files = [
    exercise.solution,
    exercise.stub,
    ...tsFiles(join(exercise.dir, "mutants")),
    ...tsFiles(join(exercise.dir, "alternatives")),
    ...tsFiles(join(exercise.dir, "reference")).filter((f) => f.endsWith("tier3.ts")),
  ];
  const results = await runner.runMany(files.map((implFile) => ({ exercise, implFile })));
  results.forEach((result, i) => {
    const key = `${exercise.id}/${relative(existsSync(files[i]) && files[i].startsWith(exercise.dir) ? exercise.dir : paths.root, files[i])}`;
    verdicts[key] = Object.fromEntries([...result.tests.map((t) => [t.name, t.state]), ...(result.error ? [["(file)", result.error.kind]] : [])]);
  });
  process.stderr.write(`${exercise.id}: ${files.length} files\n`);
}
await runner.close();
process.stderr.write(`${Object.keys(verdicts).length} files in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
const text = `${JSON.stringify(verdicts, null, 1)}\n`;
if (out) writeFileSync(out, text);
else process.stdout.write(text);
