import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { findExercise, loadExercises, type Exercise } from "../../../checker/model/exercises.js";
import { Runner } from "../../../checker/run/runner.js";
import { inLearnerWords, LEARNER_WORDS } from "../../../src/report/learner-words.js";
import { describeRun } from "../../../src/report/plain-run.js";
import { tempDir } from "../../support/temp-dir.js";

// The examples, on the lab's real exercises: each failure is explained by what the
// learner's code did, not by the bug the failing test was written against.
const root = resolve(import.meta.dirname, "../../..");
const exercises = loadExercises(join(root, "exercises"), join(root, "solutions"));
const exercise = (n: number) => findExercise(exercises, String(n))!;
let runner: Runner;
let work: string;

beforeAll(async () => {
  runner = await Runner.create({ timeoutSeconds: 30 });
  work = tempDir("explanations");
});
afterAll(() => runner.close());

/** The learner's files made so far, by exercise and change: the same change is one file. */
const files = new Map<string, string>();

/** The solution with one change, as a learner's file. */
function changed(ex: Exercise, from: string, to: string): string {
  const key = JSON.stringify([ex.id, from, to]);
  const made = files.get(key);
  if (made) return made;
  const source = readFileSync(ex.solution, "utf8");
  expect(source).toContain(from);
  const file = join(work, `${ex.id}-${files.size}.ts`);
  writeFileSync(file, source.replace(from, to));
  files.set(key, file);
  return file;
}

/**
 * Each file's plain report, from one run of it: the hidden tests are deterministic (a scripted
 * provider, injected clocks), so reading several rows, or the same file in two tests, needs no
 * second run, and exercise 11's take seconds each.
 */
const reports = new Map<string, Promise<string[]>>();
function reportOf(ex: Exercise, file: string): Promise<string[]> {
  let report = reports.get(file);
  if (!report) {
    report = runner.run({ exercise: ex, implFile: file }).then((result) => describeRun(inLearnerWords(result, ex)));
    reports.set(file, report);
  }
  return report;
}

/** The plain report's lines under the row of the test whose name contains `name`, up to the next row. */
async function rowOf(ex: Exercise, file: string, name: string): Promise<string[]> {
  const lines = await reportOf(ex, file);
  const at = lines.findIndex((l) => l.startsWith("  FAIL  ") && l.includes(name));
  expect(at, `a FAIL row for "${name}" in:\n${lines.join("\n")}`).toBeGreaterThan(-1);
  const end = lines.findIndex((l, i) => i > at && !l.startsWith("        "));
  return lines.slice(at + 1, end);
}

test("exercise 5: a hit rate of NaN on a fresh cache is told what it found, not the missed-miss bug", async () => {
  const file = changed(exercise(5), "return lookups === 0 ? 0 : this.hits / lookups;", "return this.hits / lookups;");
  const row = await rowOf(exercise(5), file, "a fresh cache reports 0");
  expect(row.slice(0, 2)).toEqual(["        checked: the hit rate of a fresh cache, before any lookup", "        found: NaN; it should equal 0"]);
  expect(row.join("\n")).not.toContain("guards against");
});

test("exercise 5: the missed-miss mutant is still told its bug, under its signature assertion", async () => {
  const row = await rowOf(exercise(5), exercise(5).mutants.find((m) => m.bug === "hit-rate-ignores-misses")!.file, "a fresh cache reports 0");
  expect(row[0]).toBe("        checked: [hits, misses] after two hits and three near misses");
  expect(row.at(-1)).toMatch(/^ {8}this test guards against the hit-rate-ignores-misses bug: A lookup that finds stored entries/);
});

test("exercise 12: a harness with no budget check at all is told how its run ended, not that it checks too late", async () => {
  const file = changed(exercise(12), "const outOfMoney = state.costUsd >= maxBudgetUsd;", "const outOfMoney = false;");
  const named = await rowOf(exercise(12), file, "a budget stop names its limit");
  expect(named.slice(0, 2)).toEqual([
    "        checked: how the run ended, with a budget of $0.002 and 1000 turns",
    "        found: 'failed'; it should equal 'budget_exceeded'",
  ]);
  expect(named.join("\n")).not.toContain("guards against");
  const late = await rowOf(exercise(12), file, "runaway at $0.01");
  expect(late.join("\n")).not.toContain("guards against");
});

test("exercise 11: a loop with no budget check at all is told what it did, not another placement's bug; budget-throws is still told its own", async () => {
  const check =
    '    let note: string | null;\n    try {\n      note = budget.guard();\n    } catch {\n      return partial(REASONS.budget);\n    }\n    if (note) next.push({ type: "text", text: note }); // in the messages, never the system prompt\n';
  const file = changed(exercise(11), check, "");
  const inSystem = await rowOf(exercise(11), file, "the system prompt is identical on every call");
  expect(inSystem.slice(0, 2)).toEqual(["        checked: the note reached the model", "        found: false; it should equal true"]);
  const partial = await rowOf(exercise(11), file, "the budget's stop returns a partial");
  expect(partial.join("\n")).toContain('"reason": "step cap of 25 reached"');
  for (const row of [inSystem, partial, await rowOf(exercise(11), file, "joins the turn's tool results")])
    expect(row.join("\n")).not.toContain("guards against");
  const throws = await rowOf(exercise(11), exercise(11).mutants.find((m) => m.bug === "budget-throws")!.file, "the budget's stop returns a partial");
  expect(throws[0]).toBe("        run threw instead of returning a partial (budget-throws bug): budget of $0.06 exhausted");
  expect(throws.at(-1)).toMatch(/^ {8}this test guards against the budget-throws bug: /);
}, 60_000);

test("the untouched stubs of 2 and 11 say 'not started yet' on every test, the ones that expect a throw included", async () => {
  for (const n of [2, 11]) {
    const ex = exercise(n);
    const lines = describeRun(inLearnerWords(await runner.run({ exercise: ex, implFile: ex.stub }), ex));
    const rows = lines.filter((l) => l.startsWith("  FAIL  ")).length;
    expect(rows).toBeGreaterThan(5);
    expect(lines.filter((l) => l === `        ${LEARNER_WORDS.notStarted}`)).toHaveLength(rows);
    expect(lines.join("\n")).not.toMatch(/guards against|checked:|found:|expected:/);
  }
}, 60_000);

test("no matcher jargon reaches the learner: no Object.is note, no 'to be greater than'", async () => {
  const file = changed(exercise(12), "const outOfMoney = state.costUsd >= maxBudgetUsd;", "const outOfMoney = false;");
  const text = (await reportOf(exercise(12), file)).join("\n");
  expect(text).toContain("found:");
  expect(text).not.toMatch(/Object\.is equality|to be greater than|to deeply equal|Test timed out in/);
});
