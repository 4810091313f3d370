// What bench/screen.mjs and bench/cli.mjs share: their options, the checkouts they run (this
// one, and --against DIR's build side by side with it), and how figures are summed up.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/** Wrong usage or a checkout that cannot be run: said in one sentence, exit 2. */
export class BenchUsageError extends Error {}

export const THIS_CHECKOUT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");

export const BENCH_MESSAGES = {
  usage: (problem, known) => `${problem.split(". ")[0]}; the options are ${known.join(", ")}.`,
  noBuild: (root) => `${root} has no built lab (dist/): run npm ci or npm run build there first.`,
  notNumber: (flag, value) => `${flag} takes a whole number of 1 or more, not "${value}".`,
  unknownExercise: (n, root, known) => `Exercise ${n} is not in ${root}, which has ${known.join(", ")}.`,
};

/**
 * The command line, strictly: an unknown option is a usage error, not ignored.
 * @param {NonNullable<import("node:util").ParseArgsConfig["options"]>} options
 * @returns {Record<string, any>}
 */
export function parseOptions(options) {
  try {
    return parseArgs({ options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const known = Object.keys(options).map((name) => `--${name}`);
    throw new BenchUsageError(BENCH_MESSAGES.usage(error instanceof Error ? error.message : String(error), known));
  }
}

export function wholeNumber(flag, value, fallback) {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new BenchUsageError(BENCH_MESSAGES.notNumber(flag, value));
  return n;
}

/** A checkout to run: its root, once it is known to hold a build. */
export function checkoutRoot(dir) {
  const root = resolve(dir);
  if (!existsSync(join(root, "dist", "checker")) || !existsSync(join(root, "bin", "lab.js"))) throw new BenchUsageError(BENCH_MESSAGES.noBuild(root));
  return root;
}

/** "path (commit)" for the report; the commit when git can say it. */
export function describeCheckout(root) {
  const head = spawnSync("git", ["-C", root, "log", "-1", "--format=%h %s"], { encoding: "utf8" });
  const line = head.status === 0 ? head.stdout.trim() : "";
  return line ? `${root} (${line.length > 60 ? `${line.slice(0, 59)}…` : line})` : root;
}

/** The checkout's exercise folders by number, read from disk (no lab code loaded): 1 → "01-tool-loop". */
export function exerciseFolders(root) {
  const folders = new Map();
  for (const name of readdirSync(join(root, "exercises"))) {
    const n = /^(\d\d)-/.exec(name)?.[1];
    if (n) folders.set(Number(n), name);
  }
  return folders;
}

/** `--exercise 1 --exercise 4,11` → [1, 4, 11], each one the checkout has; none given → `fallback`. */
export function chosenExercises(values, root, fallback) {
  const known = [...exerciseFolders(root).keys()].sort((a, b) => a - b);
  const asked = (values ?? []).flatMap((v) => v.split(",")).map((v) => v.trim());
  if (asked.length === 0) return fallback ?? known;
  return asked.map((v) => {
    const n = wholeNumber("--exercise", v);
    if (!known.includes(n)) throw new BenchUsageError(BENCH_MESSAGES.unknownExercise(n, root, known));
    return n;
  });
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export const ms = (x, width = 0) => (x === null || x === undefined ? "—" : `${x.toFixed(1)}`).padStart(width);

export const loadNow = () => loadavg()[0];

export const loadLine = (before, after) => `load average (1 min) ${before.toFixed(2)} before, ${after.toFixed(2)} after, on ${availableParallelism()} cores`;

/** this/other, as the issue's figure: below 1 is faster than the other checkout. */
export const ratio = (mine, theirs) => (theirs > 0 ? (mine / theirs).toFixed(2) : "—");

/** Runs `main`; a usage error is one sentence on stderr and exit 2, anything else throws as it is. */
export async function runBench(main) {
  try {
    await main();
  } catch (error) {
    if (!(error instanceof BenchUsageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}
