// lab grade against the obvious alternative: a `vitest run` per learner × exercise.
// 30 generated learners × every exercise that exists (solutions, stubs and mutants, so the
// class is mixed), graded once by `lab grade` (all cores, sandboxed, one process per pair)
// and once by a naive loop that starts `vitest run` for each pair, one at a time, with a
// config that binds lab:impl to that pair's file (like checker/run/dev.vitest.config.ts).
// Run with `npm run bench:grade` (it builds first). Options: LEARNERS=30 NAIVE=all|N.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import { labPaths } from "../dist/checker/paths.js";
import { loadExercises } from "../dist/checker/run/exercises.js";
import { gradeCommand } from "../dist/src/commands/grade.js";

const LEARNERS = Number(process.env.LEARNERS ?? 30);
const paths = labPaths();
const exercises = loadExercises(paths.exercises, paths.solutions);
const work = mkdtempSync(join(tmpdir(), "lab-bench-grade-"));
const classDir = join(work, "class");

/** Learner i's file for an exercise: half solutions, the rest mutants and stubs, spread over the class. */
function variant(i, exercise) {
  const kinds = [exercise.solution, ...exercise.mutants.map((m) => m.file), exercise.stub];
  if (i % 2 === 0) return { file: exercise.solution, correct: true };
  const file = kinds[1 + ((i >> 1) % (kinds.length - 1))];
  return { file, correct: false };
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
  const code = await gradeCommand(classDir, { jobs: String(availableParallelism()), timeout: "20", format: "json", out }, io, paths, { on() {}, off() {} });
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`lab grade exited with ${code}`);
  const rows = JSON.parse(readFileSync(out, "utf8")).rows;
  return { seconds, passed: new Map(rows.map((r) => [`${r.learner}/${r.exercise}`, r.state === "pass"])) };
}

// The naive config: one vitest run, one pair, bound through an alias like the dev config.
const naiveConfig = join(work, "naive.vitest.config.mjs");
writeFileSync(
  naiveConfig,
  `import { defineConfig } from ${JSON.stringify(resolve(paths.root, "node_modules/vitest/dist/config.js"))};
export default defineConfig({
  root: ${JSON.stringify(paths.root)},
  resolve: {
    alias: {
      "lab:impl": process.env.LAB_IMPL,
      "lab:test": ${JSON.stringify(join(paths.root, "checker/testing/index.ts"))},
      "@anthropic-ai/sdk": ${JSON.stringify(join(paths.root, "node_modules/@anthropic-ai/sdk"))},
    },
  },
  test: { include: ["exercises/*/hidden.test.ts"], testTimeout: 10_000, reporters: ["dot"] },
});
`,
);

function naiveRun(pair) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(paths.root, "node_modules/vitest/vitest.mjs"), "run", "--config", naiveConfig, pair.exercise.hiddenTest], {
      cwd: paths.root,
      env: { ...process.env, LAB_IMPL: pair.file, CI: "1" },
      stdio: "ignore",
    });
    child.on("exit", (code) => done(code === 0));
  });
}

async function timeNaive(sample) {
  const started = performance.now();
  const passed = new Map();
  for (const pair of sample) passed.set(pair.key, await naiveRun(pair));
  return { seconds: (performance.now() - started) / 1000, passed };
}

const cores = availableParallelism();
const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");
console.log(`${LEARNERS} learners × ${exercises.length} exercises (${exercises.map((e) => e.id).join(", ")}) = ${pairs.length} pairs on ${cores} cores (load average ${load()})`);
const grade = await timeGrade();
console.log(`lab grade:  ${grade.seconds.toFixed(1)} s  (${((grade.seconds * 1000) / pairs.length).toFixed(0)} ms a pair, ${[...grade.passed.values()].filter(Boolean).length} passed)`);

const naiveCount = process.env.NAIVE === undefined || process.env.NAIVE === "all" ? pairs.length : Math.min(pairs.length, Number(process.env.NAIVE));
const naive = await timeNaive(pairs.slice(0, naiveCount));
const naiveSeconds = (naive.seconds * pairs.length) / naiveCount;
const note = naiveCount === pairs.length ? "" : ` (measured on ${naiveCount} pairs, scaled to ${pairs.length})`;
console.log(`naive:      ${naiveSeconds.toFixed(1)} s  (${((naive.seconds * 1000) / naiveCount).toFixed(0)} ms a pair, one vitest run at a time)${note}`);

const disagree = [...naive.passed].filter(([key, passed]) => grade.passed.get(key) !== passed).map(([key]) => key);
const expected = pairs.filter((p) => grade.passed.get(p.key) !== p.correct).map((p) => p.key);
console.log(`agreement:  naive and lab grade disagree on ${disagree.length} pairs${disagree.length ? ` (${disagree.join(", ")})` : ""}; lab grade differs from the generator's intent on ${expected.length}${expected.length ? ` (${expected.join(", ")})` : ""}`);
console.log(`ratio:      ${(naiveSeconds / grade.seconds).toFixed(1)}× faster than naive (target ≥ 4×); lab grade ${grade.seconds <= 90 ? "within" : "over"} the 90 s target`);
console.log(`load average at the end: ${load()} (other work on the machine slows both sides)`);
rmSync(work, { recursive: true, force: true });
