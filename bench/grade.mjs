// lab grade against the obvious alternative: one `vitest run` per learner × exercise.
// 30 generated learners × every exercise that exists (solutions, stubs and mutants: half the
// class correct), graded once by `lab grade` (all cores, sandboxed, a process per pair), then
// by a naive loop running the command bench/cold-vitest.config.ts documents, once per
// pair, one at a time:
//   LAB_IMPL=<file> npx vitest run --config bench/cold-vitest.config.ts <hidden test>
// and, for reference, the same without npx (node_modules/vitest/vitest.mjs) on a sample.
// Ends with a projection to issue 13's class of 30 learners × 10 exercises, scaled by pairs.
// Run with `npm run bench:grade` (it builds first). Options: LEARNERS=30 NAIVE=all|N SAMPLE=15 JOBS=<cores>.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { labPaths } from "../dist/checker/paths.js";
import { loadExercises } from "../dist/checker/model/exercises.js";
import { gradeCommand } from "../dist/src/commands/grade.js";

const LEARNERS = Number(process.env.LEARNERS ?? 30);
const SAMPLE = Number(process.env.SAMPLE ?? 15);
const paths = labPaths();
const exercises = loadExercises(paths.exercises, paths.solutions);
// Inside the lab, so the dev config's learner files find @anthropic-ai/sdk the way a workspace does.
const cache = join(paths.root, "node_modules/.cache");
mkdirSync(cache, { recursive: true });
const work = mkdtempSync(join(cache, "lab-bench-grade-"));
const classDir = join(work, "class");
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

/** Learner i's file for an exercise: half solutions, the rest mutants and stubs, spread over the class. */
function variant(i, exercise) {
  const wrong = [...exercise.mutants.map((m) => m.file), exercise.stub];
  return i % 2 === 0 ? { file: exercise.solution, correct: true } : { file: wrong[(i >> 1) % wrong.length], correct: false };
}

const pairs = [];
for (let i = 0; i < LEARNERS; i++) {
  const learner = `learner-${String(i + 1).padStart(2, "0")}`;
  mkdirSync(join(classDir, learner), { recursive: true });
  for (const exercise of exercises) {
    const { file, correct } = variant(i + exercise.number, exercise);
    const target = join(classDir, learner, exercise.fileName);
    copyFileSync(file, target);
    pairs.push({ key: `${learner}/${exercise.id}`, exercise, file: target, correct });
  }
}

const silent = () => Object.assign(new PassThrough(), { isTTY: false }).resume();
const io = { stdout: silent(), stderr: silent(), stdin: new PassThrough(), env: {}, cwd: work };

async function timeGrade() {
  const out = join(work, "grade.json");
  const started = performance.now();
  const flags = { jobs: process.env.JOBS ?? String(availableParallelism()), timeout: "20", format: "json", out };
  const code = await gradeCommand(classDir, flags, io, paths, { on() {}, off() {} });
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`lab grade exited with ${code}`);
  const rows = JSON.parse(readFileSync(out, "utf8")).rows;
  return { seconds, passed: new Map(rows.map((r) => [`${r.learner}/${r.exercise}`, r.state === "pass"])) };
}

const DEV_CONFIG = "bench/cold-vitest.config.ts";
const viaNpx = (pair) => ["npx", ["vitest", "run", "--config", DEV_CONFIG, pair.exercise.hiddenTest]];
const viaNode = (pair) => [process.execPath, [join(paths.root, "node_modules/vitest/vitest.mjs"), "run", "--config", DEV_CONFIG, pair.exercise.hiddenTest]];

function naiveRun(pair, command) {
  const [bin, args] = command(pair);
  return new Promise((done) => {
    const child = spawn(bin, args, { cwd: paths.root, env: { ...process.env, LAB_IMPL: pair.file, CI: "1" }, stdio: "ignore" });
    child.on("exit", (code) => done(code === 0));
  });
}

async function timeNaive(sample, command) {
  const started = performance.now();
  const passed = new Map();
  for (const pair of sample) passed.set(pair.key, await naiveRun(pair, command));
  return { seconds: (performance.now() - started) / 1000, passed, count: sample.length };
}

const perPair = (seconds, count) => `${((seconds * 1000) / count).toFixed(0)} ms a pair`;
const cores = availableParallelism();
console.log(
  `${LEARNERS} learners × ${exercises.length} exercises (${exercises.map((e) => e.id).join(", ")}) = ${pairs.length} pairs on ${cores} cores (load average ${load()})`,
);

const grade = await timeGrade();
console.log(
  `lab grade:        ${grade.seconds.toFixed(1)} s  (${perPair(grade.seconds, pairs.length)}, ${[...grade.passed.values()].filter(Boolean).length} passed)`,
);

const naiveCount = process.env.NAIVE === undefined || process.env.NAIVE === "all" ? pairs.length : Math.min(pairs.length, Number(process.env.NAIVE));
const naive = await timeNaive(pairs.slice(0, naiveCount), viaNpx);
const naiveSeconds = (naive.seconds * pairs.length) / naive.count;
const scaled = (n) => (n === pairs.length ? "" : `, measured on ${n} pairs and scaled to ${pairs.length}`);
console.log(`naive (npx):      ${naiveSeconds.toFixed(1)} s  (${perPair(naive.seconds, naive.count)}, one run at a time${scaled(naive.count)})`);

// The same runs without npx's own start-up, on a spread-out sample, for a fairer floor.
const sample = pairs.filter((_, i) => i % Math.max(1, Math.floor(pairs.length / SAMPLE)) === 0).slice(0, SAMPLE);
const bare = await timeNaive(sample, viaNode);
const bareSeconds = (bare.seconds * pairs.length) / bare.count;
console.log(`naive (no npx):   ${bareSeconds.toFixed(1)} s  (${perPair(bare.seconds, bare.count)}${scaled(bare.count)})`);

const disagree = [...naive.passed, ...bare.passed].filter(([key, passed]) => grade.passed.get(key) !== passed).map(([key]) => key);
const intent = pairs.filter((p) => grade.passed.get(p.key) !== p.correct).map((p) => p.key);
console.log(
  `agreement:        the naive runs and lab grade disagree on ${disagree.length} pairs${disagree.length ? ` (${[...new Set(disagree)].join(", ")})` : ""}; lab grade differs from the generator's intent on ${intent.length}${intent.length ? ` (${intent.join(", ")})` : ""}`,
);
console.log(
  `ratio:            ${(naiveSeconds / grade.seconds).toFixed(1)}× faster than naive with npx, ${(bareSeconds / grade.seconds).toFixed(1)}× without (target ≥ 4×)`,
);
// Issue 13's target is a class of 30 learners × 10 exercises: scaled by pairs from this class.
const TARGET_PAIRS = 30 * 10;
const projected = (grade.seconds * TARGET_PAIRS) / pairs.length;
console.log(
  `projection:       30 learners × 10 exercises = ${TARGET_PAIRS} pairs in about ${projected.toFixed(1)} s (${projected <= 90 ? "within" : "over"} the 90 s target)`,
);
console.log(`load average at the end: ${load()} (other work on the machine slows both sides)`);
rmSync(work, { recursive: true, force: true });
