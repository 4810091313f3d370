// node bench/verdicts.mjs [--walled] [--out FILE] [N …] — every test's verdict on every file the
// self-check runs (solution, stub, each mutant, a group's too, each alternative, tier 3),
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
  // Each file under the name it has in the exercise folder (a mutant: mutants/<name>.ts, whether
  // it is stored as a diff or whole), so two checkouts' outputs diff line by line.
  const files = [
    [exercise.solution, relative(paths.root, exercise.solution)],
    [exercise.stub, "stub.ts"],
    ...exercise.mutants.map((m) => [m.file, `mutants/${m.name}.ts`]),
    ...tsFiles(join(exercise.dir, "alternatives")).map((f) => [f, relative(exercise.dir, f)]),
    ...tsFiles(join(exercise.dir, "reference"))
      .filter((f) => f.endsWith("tier3.ts"))
      .map((f) => [f, relative(exercise.dir, f)]),
  ];
  const results = await runner.runMany(files.map(([implFile]) => ({ exercise, implFile })));
  results.forEach((result, i) => {
    verdicts[`${exercise.id}/${files[i][1]}`] = Object.fromEntries([
      ...result.tests.map((t) => [t.name, t.state]),
      ...(result.error ? [["(file)", result.error.kind]] : []),
    ]);
  });
  process.stderr.write(`${exercise.id}: ${files.length} files\n`);
}
await runner.close();
process.stderr.write(`${Object.keys(verdicts).length} files in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
const text = `${JSON.stringify(verdicts, null, 1)}\n`;
if (out) writeFileSync(out, text);
else process.stdout.write(text);
