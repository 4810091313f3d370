// npm run bench:rerun — how long from saving exercise 1 to its result, warm, beside a cold `vitest run`.
//
// Warm: one Runner (the one `lab start` keeps), the learner's file rewritten 20 times with the
// solution plus a changing comment, one second apart as a person saves (so the pre-forked
// worker is ready, as it is after a real save). Cold: `vitest run` of the same hidden test
// file bound to the same implementation, as a fresh process, timed from spawn to exit.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { labPaths } from "../dist/checker/paths.js";
import { findExercise, loadExercises } from "../dist/checker/model/exercises.js";
import { Runner } from "../dist/checker/run/runner.js";

const SAMPLES = 20;
const COLD_SAMPLES = 3;
const GAP_MS = 1000;
const paths = labPaths();
const exercise = findExercise(loadExercises(paths.exercises, paths.solutions), "1");
if (!exercise) throw new Error("Exercise 1 is missing.");

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const dir = mkdtempSync(join(tmpdir(), "lab-bench-rerun-"));
const file = join(dir, exercise.fileName);
const solution = readFileSync(exercise.solution, "utf8");
writeFileSync(file, solution);

const runner = await Runner.create({ timeoutSeconds: 10, warmSpares: true, taskLocations: false }); // as lab start creates it
await runner.run({ exercise, implFile: file }); // the first run pays for vitest's start-up
const warm = [];
for (let i = 0; i < SAMPLES; i++) {
  await sleep(GAP_MS);
  const started = performance.now();
  writeFileSync(file, `${solution}\n// save ${i}\n`);
  const result = await runner.run({ exercise, implFile: file });
  warm.push(performance.now() - started);
  if (result.status !== "passed") throw new Error(`Run ${i} did not pass: ${result.status}`);
}
await runner.close();

const cold = [];
for (let i = 0; i < COLD_SAMPLES; i++) {
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [join(paths.root, "node_modules/vitest/vitest.mjs"), "run", "--config", "bench/cold-vitest.config.ts", exercise.hiddenTest],
    { cwd: paths.root, env: { ...process.env, LAB_IMPL: file }, encoding: "utf8" },
  );
  cold.push(performance.now() - started);
  if (run.status !== 0) throw new Error(`cold vitest run failed:\n${run.stdout}\n${run.stderr}`);
}

const warmMedian = median(warm);
const coldMedian = median(cold);
console.log(`exercise ${exercise.id}: ${warm.length} warm reruns, ${GAP_MS} ms apart`);
console.log(`warm rerun (save → result): median ${warmMedian.toFixed(0)} ms, min ${Math.min(...warm).toFixed(0)} ms, max ${Math.max(...warm).toFixed(0)} ms`);
console.log(`cold vitest run (spawn → exit): median of ${COLD_SAMPLES} ${coldMedian.toFixed(0)} ms`);
console.log(`ratio warm / cold: ${(warmMedian / coldMedian).toFixed(3)} (target ≤ 0.25); target median ≤ 150 ms: ${warmMedian <= 150 ? "met" : "NOT met"}`);
rmSync(dir, { recursive: true, force: true });
