// npm run bench:screen — from writing the learner's file to the updated rows on the screen.
// Exercise 1's real hidden tests, the real watcher, runner and Ink screen, drawn to a test
// stdout; a save counts as shown when a frame says "Run N:" for its run. Saves alternate
// between the solution and a one-bug mutant so every save changes the rows.
import { EventEmitter } from "node:events";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";

const dist = new URL("../dist/", import.meta.url);
const load = (path) => import(new URL(path, dist).href);
const { labPaths } = await load("checker/paths.js");
const { loadExercises } = await load("checker/model/exercises.js");
const { Runner } = await load("checker/run/runner.js");
const { WatchSession } = await load("src/watch/watch-session.js");
const { SAVE_DEBOUNCE_MS } = await load("src/watch/run-scheduler.js");
const { ProgressStore } = await load("src/progress/progress-store.js");
const { importScreen } = await load("src/screen/import-screen.js");
// As lab start loads it: React's production build, before the runner starts.
const { runScreen } = await importScreen(() => load("src/screen/run-screen.js"));
const { initialScreenState } = await load("src/screen/screen-state.js");
const { createScreenStore } = await load("src/screen/screen-store.js");
const { TypeChecker } = await load("src/typecheck/type-checker.js");
// As lab start runs by default: the type checker on. --no-types measures the screen without it.
const withTypes = !process.argv.includes("--no-types");
// --json: one line of figures for bench/screen-rounds.mjs instead of the report.
const asJson = process.argv.includes("--json");
const loadBefore = loadavg()[0];

const SAVES = 20;
const WARM_UP = 2;
const PAUSE_MS = 1_000;
const TARGET_MS = 150;

const paths = labPaths();
const exercise = loadExercises(paths.exercises, paths.solutions).find((e) => e.number === 1);
const mutant = exercise.mutants.find((m) => m.bug === "split-results") ?? exercise.mutants[0];
const versions = [readFileSync(exercise.solution, "utf8"), readFileSync(mutant.file, "utf8")];

class Stdout extends EventEmitter {
  isTTY = true;
  columns = 120;
  rows = 40;
  waiters = [];
  frames = 0;
  write(chunk) {
    this.frames++;
    const text = stripVTControlCharacters(String(chunk));
    const at = performance.now();
    this.waiters = this.waiters.filter((w) => !(w.match(text) && (w.resolve(at), true)));
    return true;
  }
  next(match) {
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }
}
class Stdin extends EventEmitter {
  isTTY = true;
  data = null;
  setRawMode() {}
  setEncoding() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read() {
    const d = this.data;
    this.data = null;
    return d;
  }
  press(key) {
    this.data = key;
    this.emit("readable");
  }
}

const dir = mkdtempSync(join(tmpdir(), "lab-bench-screen-"));
const file = join(dir, exercise.fileName);
copyFileSync(exercise.stub, file);
const io = { stdout: new Stdout(), stderr: new Stdout(), stdin: new Stdin(), env: {}, cwd: dir };

const runner = await Runner.create({ timeoutSeconds: 10, warmSpares: true, taskLocations: false }); // as lab start creates it
const typeCheck = withTypes ? new TypeChecker() : undefined;
const session = await WatchSession.start({ runner, exercise, file, poll: false, typeCheck });
const marks = {};
const typed = [];
session.subscribe((e) => {
  if (e.type === "save-seen") marks.seen ??= performance.now();
  if (e.type === "run-started") marks.started = performance.now();
  if (e.type === "run-finished") marks.finished = performance.now();
  if (e.type === "type-errors" && marks.finished) typed.push(performance.now() - marks.finished);
});
const store = createScreenStore(initialScreenState({ exercise, file, next: null }));
const progress = new ProgressStore(dir, () => {});
const shown = (run) => io.stdout.next((text) => text.includes(`Run ${run}:`));
const firstRun = shown(1);
const exit = runScreen({ io, exercise, session, store, progress, elapsed: () => 0 });
await firstRun;

/** CPU the type checker's process has used so far, in ms (Linux); what it takes while a save waits for its rows is what it costs them. */
function typeCheckerCpuMs() {
  const pid = typeCheck?.pid;
  if (pid === undefined || process.platform !== "linux") return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

const pause = () => new Promise((r) => setTimeout(r, PAUSE_MS));
const samples = [];
for (let i = 0; i < WARM_UP + SAVES; i++) {
  await pause();
  for (const key of Object.keys(marks)) delete marks[key];
  const frame = shown(i + 2);
  const [frames0, checker0, cpu0] = [io.stdout.frames, typeCheckerCpuMs(), process.cpuUsage()];
  const t0 = performance.now();
  writeFileSync(file, versions[i % 2]);
  const t1 = await frame;
  const cpu = process.cpuUsage(cpu0);
  if (i >= WARM_UP) {
    samples.push({
      total: t1 - t0,
      seen: marks.seen - t0,
      started: marks.started - t0,
      finished: marks.finished - t0,
      frames: io.stdout.frames - frames0,
      labCpu: (cpu.user + cpu.system) / 1000,
      checkerCpu: typeCheckerCpuMs() - checker0,
    });
  }
}

io.stdin.press("q");
await exit;
await session.close();
await runner.close();
await typeCheck?.close();
rmSync(dir, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => `${x.toFixed(1)} ms`;
const totals = samples.map((s) => s.total);
const part = (f) => median(samples.map(f));
const sum = (f) => samples.reduce((n, s) => n + f(s), 0);
if (asJson) {
  const figures = { types: withTypes, median: median(totals), run: part((s) => s.finished - s.started), rows: part((s) => s.total - s.finished) };
  console.log(JSON.stringify({ ...figures, checkerCpuOnPath: sum((s) => s.checkerCpu), load: [loadBefore, loadavg()[0]] }));
  process.exit(0);
}
console.log(
  `lab start screen: save → updated rows, exercise 1's real tests (${exercise.hiddenTest.split("/").slice(-2).join("/")}), type checker ${withTypes ? "on" : "off (--no-types)"}`,
);
console.log(`${SAVES} saves after ${WARM_UP} warm-up saves, ${PAUSE_MS / 1000} s apart as a human would save, so the pre-forked worker is ready`);
console.log(
  `  median ${ms(median(totals))}  min ${ms(Math.min(...totals))}  max ${ms(Math.max(...totals))}  (target ≤ ${TARGET_MS} ms: ${median(totals) <= TARGET_MS ? "met" : "NOT met"})`,
);
console.log(
  `  where it goes (medians): save → watcher event ${ms(part((s) => s.seen))} · → run started ${ms(part((s) => s.started - s.seen))} (the ${SAVE_DEBOUNCE_MS} ms save debounce)`,
);
console.log(
  `                           run started → finished ${ms(part((s) => s.finished - s.started))} (the runner: exercise 1's hidden tests) · → rows drawn ${ms(part((s) => s.total - s.finished))}`,
);
console.log(
  `  the screen per save (medians): ${part((s) => s.frames)} frames written, ${ms(part((s) => s.labCpu))} of lab's own CPU (watcher, vitest, frames)`,
);
if (withTypes) {
  console.log(
    `  type errors shown after the rows (a warning, after the verdict): median ${ms(median(typed.slice(WARM_UP)))} later, over ${typed.length} checks`,
  );
  console.log(`  CPU the type checker used between a save and its rows: ${ms(sum((s) => s.checkerCpu))} over ${SAVES} saves (it is paused for every run)`);
}
console.log(`  load average (1 min) ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after, on ${availableParallelism()} cores`);
