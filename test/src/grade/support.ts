/** Shared by the grading tests: the fixture class, temp copies of it, and ways to run lab grade. */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gradeCommand } from "../../../src/commands/grade.js";
import type { Signals } from "../../../src/grade/grade-class.js";
import type { GradeFlags } from "../../../src/grade/options.js";
import { captureIo } from "../../support/io.js";
import { tempDir as labTempDir } from "../../support/temp-dir.js";

export const ROOT = join(import.meta.dirname, "../../..");
export const FIXTURE = join(ROOT, "test/fixtures/class");
export const PATHS = { root: ROOT, exercises: join(FIXTURE, "exercises"), solutions: join(FIXTURE, "solutions") };
export const CHILD = join(import.meta.dirname, "grade-child.mjs");
export const GOOD_LEARNERS = ["ada", "ben", "cy", "dee", "eve"];
export const HOSTILE_LEARNERS = readdirSync(join(FIXTURE, "hostile")).sort();

/** A new temp folder, removed when the test that made it is done (made outside a test: the file). */
export const tempDir = (prefix: string) => labTempDir(`grade-${prefix}`);

/** A temp class folder holding copies of the named learners from learners/ and hostile/. */
export function classCopy(learners: string[] = GOOD_LEARNERS): string {
  const dir = tempDir("class");
  for (const learner of learners) {
    const from = ["learners", "hostile", "hostile-pidns", "hostile-realm"].map((group) => join(FIXTURE, group, learner)).find((d) => existsSync(d));
    if (!from) throw new Error(`no fixture learner ${learner}`);
    cpSync(from, join(dir, learner), { recursive: true });
  }
  return dir;
}

export const noSignals: Signals = { on() {}, off() {} };

/** lab grade in this process, its output captured. */
export async function gradeHere(dir: string | undefined, flags: GradeFlags, cwd = tmpdir()) {
  const io = captureIo(cwd);
  const code = await gradeCommand(dir, flags, io, PATHS, noSignals);
  return { code, out: io.out(), err: io.err() };
}

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

/** lab grade as a process of its own (test/src/grade/grade-child.mjs, on the built dist/). */
export function gradeChild(
  dir: string | undefined,
  flags: GradeFlags,
  options: { env?: NodeJS.ProcessEnv; cwd?: string; onStart?: (pid: number) => void; wrap?: string[] } = {},
) {
  // `wrap`: a command that runs node, e.g. unshare into a PID namespace made for the test.
  const [command, ...args] = [...(options.wrap ?? []), process.execPath, CHILD, JSON.stringify([dir, flags])];
  const child = spawn(command!, args, {
    cwd: options.cwd ?? tmpdir(),
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const done = new Promise<ChildRun>((resolve) => child.on("close", (code, signal) => resolve({ code, signal, out, err })));
  return { child, done };
}

/** The table without its ms column (values and header): the only column that differs between two gradings of the same files. */
export function withoutMs(table: string): string {
  const [rows = "", ...rest] = table.split("\n\n");
  return [rows.replace(/ +(\d+|-|ms)$/gm, ""), ...rest].join("\n\n");
}

/** A json report with every ms and the report's date removed, for the same reason. */
export function jsonWithoutMs(json: string): unknown {
  return JSON.parse(json, (key, value) => (key === "ms" || key === "date" ? undefined : value));
}

/** Every file under a folder (but .lab-grade) with the sha256 of its bytes (a link: where it points). */
export function hashTree(dir: string, skip = ".lab-grade"): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.name === skip) continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isSymbolicLink()) out[relative(dir, path)] = `link to ${readlinkSync(path)}`;
      else out[relative(dir, path)] = createHash("sha256").update(readFileSync(path)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

/** The records in a class's results.jsonl, parsed, torn lines dropped. */
export function resultLines(dir: string): { key: string; state: string }[] {
  const file = join(dir, ".lab-grade/results.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { key: string; state: string }];
      } catch {
        return [];
      }
    });
}

/** Each learner's results.json as text, by learner. */
export function learnerResults(dir: string, gradeDir = join(dir, ".lab-grade")): Record<string, string> {
  const root = join(gradeDir, "learners");
  if (!existsSync(root)) return {};
  return Object.fromEntries(
    readdirSync(root)
      .filter((l) => statSync(join(root, l)).isDirectory())
      .map((l) => [l, readFileSync(join(root, l, "results.json"), "utf8")]),
  );
}

/** The fixture class's table, ms column aside: what every grading of learners/ must print. */
export const GOOD_TABLE = [
  "learner  exercise    passed  state    first failing test or reason",
  "ada      01-adder    3/3     pass     -",
  "ada      02-greeter  2/2     pass     -",
  "ben      01-adder    2/3     fail     adds negative numbers (off-by-one bug)",
  "ben      02-greeter  1/2     fail     greets by name (no-trim bug)",
  "cy       01-adder    0/3     fail     adds two numbers (off-by-one bug)",
  "cy       02-greeter  2/2     pass     -",
  "dee      01-adder    -       missing  No file dee/01-adder.ts.",
  "dee      02-greeter  2/2     pass     -",
  "eve      01-adder    -       missing  No file eve/01-adder.ts.",
  "eve      02-greeter  -       missing  No file eve/02-greeter.ts.",
  "",
  "learner  exercises passed  tests passed  best drills",
  "ada      2/2               5/5           01 5:05, 02 1:35",
  "ben      0/2               3/5           01 -, 02 4:10",
  "cy       1/2               2/5           01 -, 02 -",
  "dee      1/2               2/2           01 10:00, 02 -",
  "eve      0/2               0/0           01 -, 02 -",
  "",
  "exercise    passed  rate  fail  error  timeout  missing",
  "01-adder    1/5      20%  2     0      0        2",
  "02-greeter  3/5      60%  1     0      0        1",
  "",
  "most failed tests",
  "learners  exercise    test",
  "       2  01-adder    adds negative numbers (off-by-one bug)",
  "       1  01-adder    adds two numbers (off-by-one bug)",
  "       1  01-adder    asks the model to echo the sum (no-echo bug)",
  "       1  02-greeter  greets by name (no-trim bug)",
  "",
  "copies (flags only: no score changes)",
  "learner  exercise    matches",
  "ada      01-adder    the reference solution",
  "ada      02-greeter  the reference solution, cy, dee",
  "cy       02-greeter  the reference solution, ada, dee",
  "dee      02-greeter  the reference solution, ada, cy",
  "",
  "peeks",
  "learner  exercise    opened",
  "ben      01-adder    1 hint, tier 3 before passing",
  "ben      02-greeter  the solution before passing, tier 3 before passing",
  "",
].join("\n");

/** A table's result rows as [learner, exercise, passed, state, why], whatever the column widths, ms or not. */
export function tableRows(table: string): string[][] {
  return table
    .split("\n\n")[0]!
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/ {2,}/).slice(0, 5));
}

/** How many tests a hidden test file declares, read from its source (one that uses test.each is refused: its count is not in the text). */
export function declaredTests(hiddenTest: string): number {
  const source = readFileSync(hiddenTest, "utf8");
  if (/\btest\.each\b|\bit\.each\b/.test(source)) throw new Error(`${hiddenTest} uses test.each: count its tests another way`);
  return source.match(/^\s*test(\.skip|\.concurrent)?\(/gm)?.length ?? 0;
}
