// node bench/cpu-hog.mjs [--rounds 3] [--hogs N] [--alternatives] [N …] — correct code under a
// machine busy with other work. Starts N busy loops (default: one more than there are cores,
// so every core is taken and then some), then runs `lab check N --file F` as a learner would,
// for every solution (with --alternatives, every alternative and tier 3 reference too), round
// after round, and prints each run's verdict, its wall time and whether the type check had
// answered by then. Every run must pass: the time limits stop hangs, they do not measure the
// machine. Exit 1 when any run did not pass. The busy loops are stopped at the end.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { join, relative } from "node:path";
import { labPaths } from "../dist/checker/paths.js";
import { loadExercises } from "../dist/checker/model/exercises.js";
import { CHECK_NOTES } from "../dist/src/commands/check.js";

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const rounds = option("--rounds", 3);
const hogCount = option("--hogs", availableParallelism() + 1);
const valued = new Set(["--rounds", "--hogs"].map((name) => args.indexOf(name) + 1));
const only = args.filter((a, i) => !a.startsWith("--") && !valued.has(i));
const paths = labPaths();
const exercises = loadExercises(paths.exercises, paths.solutions).filter((e) => only.length === 0 || only.some((key) => Number(key) === e.number));
const files = exercises.flatMap((exercise) =>
  [exercise.solution, ...(args.includes("--alternatives") ? [...exercise.alternatives, ...(exercise.references[3] ? [exercise.references[3]] : [])] : [])].map(
    (file) => ({ exercise, file }),
  ),
);

/** One `lab check`, as a learner runs it: its exit code, closing line, seconds, and whether the type check was left out. */
function check(exercise, file) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(paths.root, "bin/lab.js"), "check", String(exercise.number), "--file", file], { cwd: paths.root });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.resume();
    child.on("exit", (code) => {
      const lines = out.trimEnd().split("\n");
      resolve({ code, last: lines.at(-1), seconds: (performance.now() - started) / 1000, typeCheckLeftOut: out.includes(CHECK_NOTES.typeCheckPending) });
    });
  });
}

const hogs = Array.from({ length: hogCount }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
const stopHogs = () => hogs.forEach((hog) => hog.kill());
process.on("SIGINT", () => {
  stopHogs();
  process.exit(130);
});
process.stderr.write(`${hogCount} busy loops on ${availableParallelism()} cores; ${files.length} files × ${rounds} rounds\n`);

const failures = [];
const seconds = [];
let leftOut = 0;
try {
  for (let round = 1; round <= rounds; round++) {
    for (const { exercise, file } of files) {
      const run = await check(exercise, file);
      seconds.push(run.seconds);
      if (run.typeCheckLeftOut) leftOut++;
      const name = relative(paths.root, file);
      const line = `round ${round}  ${name.padEnd(58)} ${run.code === 0 ? "pass" : "FAIL"}  ${run.seconds.toFixed(1).padStart(5)} s  ${run.last}${run.typeCheckLeftOut ? "  (type check left out)" : ""}`;
      console.log(line);
      if (run.code !== 0) failures.push(line);
    }
  }
} finally {
  stopHogs();
}
seconds.sort((a, b) => a - b);
const at = (q) => seconds[Math.min(seconds.length - 1, Math.floor(q * seconds.length))].toFixed(1);
console.log(
  `${seconds.length - failures.length}/${seconds.length} passed under ${hogCount} busy loops; lab check took a median ${at(0.5)} s, at most ${at(1)} s; the type check was left out of ${leftOut}`,
);
if (failures.length > 0) process.exitCode = 1;
