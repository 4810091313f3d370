// npm run bench:cli [-- options] — lab as whole processes: `lab --help` and `lab list` (plain,
// piped) spawn to exit; `lab start N` in a real 80×24 terminal to its first frame and its first
// verdict (a fresh workspace: the stub's first run); `lab check N --file` on a copy of the
// solution in the workspace (a passing file), spawn to exit. See cli-processes.mjs.
//   --exercise N[,M]  the exercises lab start and lab check are timed on (default 1, 4, 11, 12)
//   --runs N          timed runs of each start and check, after one warm-up (default 5)
//   --against DIR     DIR's build too, run for run in turns with this one: one table with the ratio
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkPassing, labFolder, labTime, removeFolder, requireScript, startToVerdict, wallTime } from "./cli-processes.mjs";
import {
  checkoutRoot,
  chosenExercises,
  describeCheckout,
  loadLine,
  loadNow,
  median,
  ms,
  parseOptions,
  ratio,
  runBench,
  THIS_CHECKOUT,
  wholeNumber,
} from "./side-by-side.mjs";

const QUICK_RUNS = 20;
const EXERCISES = [1, 4, 11, 12];
/** What each figure should be at most (issue 29: the screen with its first verdict ≤ 1 s, a passing check ≤ 1.5 s). */
const TARGETS = { "--help": 150, list: 150, "first verdict": 1_000, "passing file": 1_500 };
const targetOf = (row) => Object.entries(TARGETS).find(([end]) => row.endsWith(end))?.[1] ?? null;

await runBench(async () => {
  const values = parseOptions({ exercise: { type: "string", multiple: true }, runs: { type: "string" }, against: { type: "string" } });
  const mine = THIS_CHECKOUT;
  const other = values.against ? checkoutRoot(values.against) : null;
  const runs = wholeNumber("--runs", values.runs, 5);
  const numbers = chosenExercises(values.exercise, mine, EXERCISES);
  if (other) chosenExercises(values.exercise ?? numbers.map(String), other);
  requireScript();

  const roots = other ? [mine, other] : [mine];
  const loadBefore = loadNow();
  const cwd = labFolder();
  const measurements = [
    { runs: QUICK_RUNS, sample: (root) => ({ "lab --help": labTime(root, ["--help"], cwd) }) },
    { runs: QUICK_RUNS, sample: (root) => ({ "lab list": labTime(root, ["list"], cwd) }) },
    ...numbers.flatMap((n) => [
      { runs, sample: (root) => startToVerdict(root, n) },
      { runs, sample: (root) => checkPassing(root, n) },
    ]),
  ];
  /** row → root → samples */
  const table = new Map();
  for (const { runs: count, sample } of measurements) {
    // One warm-up each (the disk cache), then runs in turns: whichever checkout went first goes second next time.
    for (let i = -1; i < count; i++) {
      for (const root of i % 2 === 0 ? roots : [...roots].reverse()) {
        const figures = await sample(root);
        if (i < 0) continue;
        for (const [row, took] of Object.entries(figures)) {
          if (!table.has(row)) table.set(row, new Map(roots.map((r) => [r, []])));
          table.get(row).get(root).push(took);
        }
      }
    }
  }
  // For scale: a Node process that does nothing, on this machine, now.
  const empty = join(cwd, "empty.mjs");
  writeFileSync(empty, "");
  const nodeAlone = median(Array.from({ length: QUICK_RUNS }, () => wallTime(empty, [], cwd)));
  removeFolder(cwd);

  console.log(`lab as a whole process, ms from spawn: median of ${QUICK_RUNS} (--help, list) or ${runs} (start, check) after one warm-up`);
  console.log(`this:  ${describeCheckout(mine)}`);
  if (other) console.log(`other: ${describeCheckout(other)} (run for run in turns with this one)`);
  const header = other ? `${"this".padStart(8)} ${"other".padStart(8)} this/other` : `${"median".padStart(8)} ${"min".padStart(8)} ${"max".padStart(8)}`;
  console.log(`${"command".padEnd(36)} ${header}  target`);
  for (const [row, byRoot] of table) {
    const m = median(byRoot.get(mine));
    const cells = other
      ? [ms(m, 8), ms(median(byRoot.get(other)), 8), ratio(m, median(byRoot.get(other))).padStart(10)]
      : [ms(m, 8), ms(Math.min(...byRoot.get(mine)), 8), ms(Math.max(...byRoot.get(mine)), 8)];
    const target = targetOf(row);
    console.log(`${row.padEnd(36)} ${cells.join(" ")}  ${target === null ? "" : `≤ ${target}: ${m <= target ? "met" : "NOT met"}`}`);
  }
  console.log(`${"node alone (what any command pays)".padEnd(36)} ${ms(nodeAlone, 8)}`);
  console.log(loadLine(loadBefore, loadNow()));
});
