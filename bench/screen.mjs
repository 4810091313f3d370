// npm run bench:screen [-- options] — from writing the learner's file to its updated rows on the
// live screen, one row per exercise: the real watcher, runner and Ink screen drawn to a test
// stdout (screen-measure.mjs), the type checker on as `lab start` runs it.
//   --exercise N[,M]  only these exercises (repeatable); all of them by default
//   --saves N         timed saves per exercise, after 2 warm-ups, 1 s apart (default 10)
//   --no-types        without the type checker
//   --lab DIR         another checkout's build instead of this one's
//   --against DIR     this checkout and DIR's build in one run, exercise by exercise, each in a
//                     child process of this script (--json --lab), in turns: one table with the ratio
//   --json            one line of figures instead of the report (bench/screen-rounds.mjs reads it)
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { measureExercise } from "./screen-measure.mjs";
import { loadLab } from "./screen-lab.mjs";
import {
  BenchUsageError,
  checkoutRoot,
  chosenExercises,
  describeCheckout,
  exerciseFolders,
  loadLine,
  loadNow,
  ms,
  parseOptions,
  ratio,
  runBench,
  THIS_CHECKOUT,
  wholeNumber,
} from "./side-by-side.mjs";

const WARM_UP = 2;
const PAUSE_MS = 1_000; // a human's pace between saves: the pre-forked worker is ready
const TARGET_MS = 150;
const SELF = fileURLToPath(import.meta.url);
const NOT_IN_OTHER = (n, root) => `Exercise ${n} is not in ${root}, so it cannot be run side by side.`;

await runBench(async () => {
  const values = parseOptions({
    exercise: { type: "string", multiple: true },
    saves: { type: "string" },
    "no-types": { type: "boolean" },
    lab: { type: "string" },
    against: { type: "string" },
    json: { type: "boolean" },
  });
  const root = checkoutRoot(values.lab ?? THIS_CHECKOUT);
  const opts = { saves: wholeNumber("--saves", values.saves, 10), types: !values["no-types"] };
  const numbers = chosenExercises(values.exercise, root);
  if (values.against) return sideBySide(root, checkoutRoot(values.against), numbers, opts);
  const figures = await measure(root, numbers, opts);
  if (values.json) console.log(JSON.stringify(figures));
  else report(figures);
});

/** Every chosen exercise on one runner and one type checker, as `lab start` keeps them from one exercise to the next. */
async function measure(root, numbers, { saves, types }) {
  const loadBefore = loadNow();
  const lab = await loadLab(root);
  const runner = await lab.Runner.create({ timeoutSeconds: 10, warmSpares: true, taskLocations: false }); // as lab start creates it
  const typeCheck = types ? new lab.TypeChecker() : undefined;
  const exercises = [];
  try {
    for (const n of numbers) {
      const exercise = lab.exercises.find((e) => e.number === n);
      exercises.push(await measureExercise(lab, exercise, { runner, typeCheck, saves, warmUp: WARM_UP, pauseMs: PAUSE_MS }));
    }
  } finally {
    await runner.close();
    await typeCheck?.close();
  }
  return { lab: root, types, saves, warmUp: WARM_UP, debounceMs: lab.SAVE_DEBOUNCE_MS, load: [loadBefore, loadNow()], exercises };
}

function report({ lab, types, saves, debounceMs, load, exercises }) {
  console.log(`lab start screen: save → updated rows, ${describeCheckout(lab)}, type checker ${types ? "on" : "off (--no-types)"}`);
  console.log(
    `${saves} saves per exercise after ${WARM_UP} warm-ups, ${PAUSE_MS / 1000} s apart, alternating the solution and the mutant named; medians in ms`,
  );
  console.log(`(the save's parts: → watcher event, → run started (the ${debounceMs} ms debounce), → run finished, → rows drawn)`);
  console.log(
    `${"exercise".padEnd(20)} ${"mutant".padEnd(24)} median    min    max │ event  debnc    run   rows │ frames lab CPU${types ? "  types after" : ""}`,
  );
  for (const f of exercises) {
    const cells = [ms(f.median, 6), ms(f.min, 6), ms(f.max, 6), "│", ms(f.seen, 5), ms(f.debounce, 5), ms(f.run, 6), ms(f.rows, 6), "│"];
    const cpu = `${String(f.frames).padStart(6)} ${ms(f.labCpu, 7)}${types ? ` ${ms(f.typesAfter, 12)}` : ""}`;
    console.log(`${f.id.padEnd(20)} ${f.mutant.padEnd(24)} ${cells.join(" ")} ${cpu}`);
  }
  const over = exercises.filter((f) => f.median > TARGET_MS).map((f) => f.number);
  console.log(`target ≤ ${TARGET_MS} ms on every exercise: ${over.length === 0 ? "met" : `NOT met on ${over.join(", ")}`}`);
  if (types) {
    const cpu = exercises.reduce((n, f) => n + f.checkerCpuOnPath, 0);
    console.log(`CPU the type checker used between a save and its rows: ${cpu} ms over all ${saves * exercises.length} saves (it is paused for every run)`);
  }
  console.log(loadLine(load[0], load[1]));
}

/** One child process of this script for one exercise of one checkout; its figures. */
function child(root, number, { saves, types }) {
  const args = [SELF, "--json", "--lab", root, "--exercise", String(number), "--saves", String(saves), ...(types ? [] : ["--no-types"])];
  const run = spawnSync(process.execPath, args, { encoding: "utf8" });
  const line = run.stdout.trim().split("\n").at(-1);
  if (run.status !== 0 || !line?.startsWith("{")) throw new Error(`bench/screen.mjs --lab ${root} --exercise ${number} failed:\n${run.stdout}${run.stderr}`);
  return JSON.parse(line).exercises[0];
}

/** Both checkouts, exercise by exercise, taking turns at going first so the machine's drift falls on both. */
function sideBySide(mine, other, numbers, opts) {
  const theirs = exerciseFolders(other);
  for (const n of numbers) if (!theirs.has(n)) throw new BenchUsageError(NOT_IN_OTHER(n, other));
  const loadBefore = loadNow();
  const rows = [];
  for (const [i, n] of numbers.entries()) {
    const order = i % 2 === 0 ? [mine, other] : [other, mine];
    const got = new Map(order.map((root) => [root, child(root, n, opts)]));
    rows.push({ n, mine: got.get(mine), other: got.get(other) });
    const [a, b] = [got.get(mine), got.get(other)];
    process.stderr.write(`exercise ${n}: this ${ms(a.median)} ms, other ${ms(b.median)} ms\n`);
  }
  console.log(`save → updated rows, side by side in one run, type checker ${opts.types ? "on" : "off (--no-types)"}`);
  console.log(`this:  ${describeCheckout(mine)}`);
  console.log(`other: ${describeCheckout(other)}`);
  console.log(
    `median of ${opts.saves} saves per exercise after ${WARM_UP} warm-ups, ${PAUSE_MS / 1000} s apart; each exercise in a fresh process per checkout, in turns`,
  );
  console.log(`${"exercise".padEnd(20)} ${"mutant".padEnd(24)}   this  other  this/other │ run: this  other`);
  for (const { mine: a, other: b } of rows) {
    const mutant = a.mutant === b.mutant ? a.mutant : `${a.mutant} / ${b.mutant}`;
    console.log(
      `${a.id.padEnd(20)} ${mutant.padEnd(24)} ${ms(a.median, 6)} ${ms(b.median, 6)} ${ratio(a.median, b.median).padStart(11)} │ ${ms(a.run, 9)} ${ms(b.run, 6)}`,
    );
  }
  const worst = rows.reduce((w, r) => (r.mine.median / r.other.median > w.mine.median / w.other.median ? r : w));
  console.log(`highest ratio ${ratio(worst.mine.median, worst.other.median)} (exercise ${worst.n}); the issue asks ≤ 0.50 on every exercise`);
  console.log(loadLine(loadBefore, loadNow()));
}
