// One exercise on the live screen, as bench/screen.mjs measures it: the real watcher, runner
// and Ink screen, drawn to a stdout that timestamps each frame. A save counts as shown when a
// frame says "Run N:" for its run; saves alternate between the solution and one mutant, so
// every save changes the rows.
import { EventEmitter } from "node:events";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { firstMutant } from "./screen-lab.mjs";
import { median } from "./side-by-side.mjs";

/** A save's rows not drawn by then is a hang, not a figure. */
const SHOWN_WITHIN_MS = 90_000;
const LATE = (number, run) => `Exercise ${number}: run ${run}'s rows were not drawn within ${SHOWN_WITHIN_MS / 1000} s.`;

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

/** CPU the type checker's process has used so far, in ms (Linux); what it takes while a save waits for its rows is what it costs them. */
function cpuMsOf(pid) {
  if (pid === undefined || process.platform !== "linux") return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `saves` timed saves after `warmUp` untimed ones, `pauseMs` apart, on one exercise of `lab`
 * with the given runner and type checker (shared across exercises, as `lab start` keeps them
 * when the learner moves on). Returns the exercise's figures, medians in ms.
 */
export async function measureExercise(lab, exercise, { runner, typeCheck, saves, warmUp, pauseMs }) {
  const mutant = firstMutant(lab, exercise);
  const versions = [readFileSync(exercise.solution, "utf8"), readFileSync(mutant.file, "utf8")];
  const dir = mkdtempSync(join(tmpdir(), "lab-bench-screen-"));
  const file = join(dir, exercise.fileName);
  copyFileSync(exercise.stub, file);
  const io = { stdout: new Stdout(), stderr: new Stdout(), stdin: new Stdin(), env: {}, cwd: dir };

  const session = await lab.WatchSession.start({ runner, exercise, file, poll: false, typeCheck });
  const marks = {};
  session.subscribe((e) => {
    if (e.type === "save-seen") marks.seen ??= performance.now();
    if (e.type === "run-started") marks.started = performance.now();
    if (e.type === "run-finished") marks.finished = performance.now();
    if (e.type === "type-errors" && marks.finished) marks.typed ??= performance.now();
  });
  const store = lab.createScreenStore(lab.initialScreenState({ exercise, file, next: null }));
  const progress = new lab.ProgressStore(dir, () => {});
  const shown = (run) =>
    new Promise((resolve, reject) => {
      const hung = setTimeout(() => reject(new Error(LATE(exercise.number, run))), SHOWN_WITHIN_MS);
      io.stdout.next((text) => text.includes(`Run ${run}:`)).then((at) => (clearTimeout(hung), resolve(at)));
    });
  const firstRun = shown(1);
  const exit = lab.runScreen({ io, exercise, session, store, progress, elapsed: () => 0 });
  await firstRun;

  const samples = [];
  for (let i = 0; i < warmUp + saves; i++) {
    await sleep(pauseMs);
    // The type check of the save before ends after its rows: it has had the pause to arrive.
    if (samples.length > 0 && marks.typed) samples[samples.length - 1].typed = marks.typed - marks.finished;
    for (const key of Object.keys(marks)) delete marks[key];
    const frame = shown(i + 2);
    const [frames0, checker0, cpu0] = [io.stdout.frames, cpuMsOf(typeCheck?.pid), process.cpuUsage()];
    const t0 = performance.now();
    writeFileSync(file, versions[i % 2]);
    const t1 = await frame;
    const cpu = process.cpuUsage(cpu0);
    if (i < warmUp) continue;
    samples.push({
      total: t1 - t0,
      seen: marks.seen - t0,
      started: marks.started - t0,
      finished: marks.finished - t0,
      frames: io.stdout.frames - frames0,
      labCpu: (cpu.user + cpu.system) / 1000,
      checkerCpu: cpuMsOf(typeCheck?.pid) - checker0,
      typed: /** @type {number | null} */ (null),
    });
  }
  await sleep(pauseMs);
  if (marks.typed) samples[samples.length - 1].typed = marks.typed - marks.finished;

  io.stdin.press("q");
  await exit;
  await session.close();
  rmSync(dir, { recursive: true, force: true });
  return figuresOf(exercise, mutant, samples);
}

function figuresOf(exercise, mutant, samples) {
  const part = (f) => median(samples.map(f));
  const totals = samples.map((s) => s.total);
  const typed = samples.flatMap((s) => (s.typed === null ? [] : [s.typed]));
  return {
    number: exercise.number,
    id: exercise.id,
    mutant: mutant.name,
    saves: samples.length,
    median: median(totals),
    min: Math.min(...totals),
    max: Math.max(...totals),
    seen: part((s) => s.seen),
    debounce: part((s) => s.started - s.seen),
    run: part((s) => s.finished - s.started),
    rows: part((s) => s.total - s.finished),
    frames: part((s) => s.frames),
    labCpu: part((s) => s.labCpu),
    checkerCpuOnPath: samples.reduce((n, s) => n + s.checkerCpu, 0),
    typesAfter: typed.length > 0 ? median(typed) : null,
    typeChecks: typed.length,
  };
}
