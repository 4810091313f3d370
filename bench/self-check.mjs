// npm run bench:self-check [-- 8 9 10] — how long the self-check takes, exercise by exercise.
//
// Each exercise gets a Runner of its own (2 workers, as test/self-check.test.ts uses), so its
// time includes starting the workers. Wall time depends on what else the machine is doing, so
// the CPU time of the workers (read from /proc on Linux, once they have exited) is printed too:
// CPU seconds / 2 is roughly the wall time on an idle two-core machine.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { labPaths } from "../dist/checker/paths.js";
import { loadExercises } from "../dist/checker/run/exercises.js";
import { Runner } from "../dist/checker/run/runner.js";
import { selfCheck } from "../dist/checker/self-check/self-check.js";

/** CPU seconds of this process and of its children that have exited, or null off Linux. */
function cpuSeconds() {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0); // utime stime cutime cstime
    return ticks / 100;
  } catch {
    return null;
  }
}

const paths = labPaths();
const wanted = process.argv.slice(2).map(Number);
const exercises = loadExercises(paths.exercises, paths.solutions).filter((e) => wanted.length === 0 || wanted.includes(e.number));
console.log(`load average at start: ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);

let totalWall = 0;
let totalCpu = 0;
let problems = 0;
for (const exercise of exercises) {
  const cpu0 = cpuSeconds();
  const started = performance.now();
  const runner = await Runner.create({ timeoutSeconds: 10, maxWorkers: 2 });
  const [verdict] = await selfCheck(runner, [exercise]);
  await runner.close();
  const wall = (performance.now() - started) / 1000;
  const cpu = cpu0 === null ? null : cpuSeconds() - cpu0;
  totalWall += wall;
  totalCpu += cpu ?? 0;
  problems += verdict.problems.length;
  const runs = 2 + exercise.mutants.length;
  console.log(
    `${exercise.id.padEnd(20)} ${String(runs).padStart(2)} runs  wall ${wall.toFixed(1).padStart(5)} s` +
      (cpu === null ? "" : `  cpu ${cpu.toFixed(1).padStart(5)} s`) +
      (verdict.problems.length ? `  ${verdict.problems.length} problem(s)` : ""),
  );
}
console.log(`total: wall ${totalWall.toFixed(1)} s${totalCpu ? `, cpu ${totalCpu.toFixed(1)} s` : ""}, ${exercises.length} exercises, ${problems} problem(s)`);
process.exitCode = problems ? 1 : 0;
