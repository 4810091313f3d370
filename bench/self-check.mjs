// npm run bench:self-check [-- N …] [-- --together] — how long the self-check takes, per exercise and per run.
//
// Two Runners, as test/self-check.test.ts uses them (2 workers each): one runs each exercise's
// solution, stub and mutants, the other, at the same time, the files that must pass everything
// (solution, alternatives, tier 3 reference) behind grading's walls. Prints each
// exercise's wall time for both, its runs and the wall time per run, and the median and slowest
// time a run spent in its own tests, then the total and the load average, because a busy
// machine stretches every figure.
// The machine's CPU time over the run is printed too (from /proc/stat on Linux; the workers'
// own times are lost when their PID namespace is killed whole): busy seconds / 2 is roughly the
// wall time on an otherwise idle two-core machine, and anything else running is in it.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { labPaths } from "../dist/checker/paths.js";
import { loadExercises } from "../dist/checker/model/exercises.js";
import { Runner } from "../dist/checker/run/runner.js";
import { selfCheck } from "../dist/checker/self-check/self-check.js";
import { DEFAULT_MEMORY_MB } from "../dist/src/grade/options.js";
import { walledRunnerOptions } from "../dist/src/grade/sandbox.js";

const WORKERS = 2;
const paths = labPaths();
const args = process.argv.slice(2);
// --together: every exercise in one batch, as `selfCheck(runner, all)` runs them.
const together = args.includes("--together");
const only = args.filter((a) => a !== "--together");
const exercises = loadExercises(paths.exercises, paths.solutions).filter((e) => only.length === 0 || only.some((key) => e.id.startsWith(key.padStart(2, "0"))));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** Busy CPU seconds of the whole machine since boot (every state but idle and iowait), or null off Linux. */
function machineBusySeconds() {
  try {
    const ticks = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = ticks;
    return (user + nice + system + irq + softirq + steal) / 100;
  } catch {
    return null;
  }
}
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

const started = performance.now();
const busyBefore = machineBusySeconds();
const runner = await Runner.create({ timeoutSeconds: 10, maxWorkers: WORKERS });
const walled = await Runner.create({ timeoutSeconds: 10, maxWorkers: WORKERS, ...walledRunnerOptions(paths.root, exercises, DEFAULT_MEMORY_MB) });
const startup = performance.now() - started;
console.log(`runner start: ${seconds(startup)} (${WORKERS} workers, load average ${loadavg()[0].toFixed(1)})`);

let problems = 0;
/** A runner that also keeps, per run, the time spent in its tests: the runs counted as they happen, not from the self-check's plan. */
const timing = (on, into) => ({
  runMany: async (requests) => {
    const results = await on.runMany(requests);
    into.push(...results.map((r) => r.tests.reduce((sum, t) => sum + t.ms, 0)));
    return results;
  },
});
const check = async (chosen) => {
  const timed = { here: [], walled: [] };
  const verdicts = await selfCheck(timing(runner, timed.here), chosen, { runner: timing(walled, timed.walled), where: "walled" });
  const found = verdicts.reduce((n, v) => n + v.problems.length, 0);
  problems += found;
  return { timed, runs: [...timed.here, ...timed.walled], found };
};
if (together) {
  const before = performance.now();
  const { runs, found } = await check(exercises);
  const wall = performance.now() - before;
  console.log(`all together: ${seconds(wall)} wall for ${runs.length} runs (${seconds(wall / runs.length)} a run)${found ? `, ${found} problem(s)` : ""}`);
}
for (const exercise of together ? [] : exercises) {
  const before = performance.now();
  const { timed, runs, found } = await check([exercise]);
  const wall = performance.now() - before;
  console.log(
    `${exercise.id}: ${seconds(wall)} for ${timed.here.length} runs + ${timed.walled.length} walled (${seconds(wall / runs.length)} a run); ` +
      `time in tests per run: median ${seconds(median(runs))}, slowest ${seconds(Math.max(...runs))}` +
      (found ? `, ${found} problem(s)` : ""),
  );
}
await Promise.all([runner.close(), walled.close()]);
const total = performance.now() - started;
const busy = machineBusySeconds();
if (busy !== null && busyBefore !== null) console.log(`cpu: ${(busy - busyBefore).toFixed(1)} s busy on the whole machine (${WORKERS} cores)`);
console.log(
  `total: ${seconds(total)} for ${exercises.length} exercise(s), ${seconds(total / Math.max(1, exercises.length))} each; load average now ${loadavg()[0].toFixed(1)}`,
);
if (problems) process.exitCode = 1;
