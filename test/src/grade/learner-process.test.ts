/**
 * A learner's exercises share one worker process (src/grade/engine.ts); each row must still be
 * that pair's own verdict, word for word what a process of its own would give it.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, test } from "vitest";
import { RUN_MESSAGES } from "../../../checker/model/result.js";
import { REALM_MESSAGES } from "../../../checker/realm/messages.js";
import { GRADE_REASONS } from "../../../src/grade/messages.js";
import { FIXTURE, gradeHere, tempDir } from "./support.js";

const LIMIT_SECONDS = 3;
const solution = (exercise: string) => readFileSync(join(FIXTURE, "solutions", `${exercise}.ts`), "utf8");
const SELF_KILL = `process.kill(process.pid, "SIGKILL");`;

/** Each learner's two files, as additions to the reference solutions (null: the solution as it is). */
const CLASS: Record<string, [adder: string | null, greeter: string | null]> = {
  // Its error must not reach the next learner's row, whose run of the same test dies unreported.
  "0-throws-first": [`throw new Error("0-throws-first's own words");`, null],
  "a-crashes-first": [SELF_KILL, null],
  "b-crashes-second": [null, SELF_KILL],
  "c-exits-second": [null, "process.exit(0);"],
  // Kills its process when the next file's run is sent to it: the next file is not to blame.
  "d-leaves-a-trap": [`process.on("message", (m: { type?: string }) => { if (m?.type === "run") ${SELF_KILL} });`, null],
  "e-loops-first": ["while (true) {}", null],
  "f-honest": [null, null],
  // Fails (off by one; its own meddling breaks one more) and changes a global the next exercise relies on.
  "g-fails-and-meddles": [`String.prototype.trim = function () { return "meddled"; };`, null],
};

type RowFacts = [state: string, passed: string, detail: string | null];
const PASS_ADDER: RowFacts = ["pass", "3/3", null];
const PASS_GREETER: RowFacts = ["pass", "2/2", null];
const EXPECTED: Record<string, RowFacts[]> = {
  "0-throws-first": [["error", "0/0", RUN_MESSAGES.importFailed("0-throws-first's own words")], PASS_GREETER],
  "a-crashes-first": [["error", "0/0", GRADE_REASONS.crashed], PASS_GREETER],
  "b-crashes-second": [PASS_ADDER, ["error", "0/0", GRADE_REASONS.crashed]],
  "c-exits-second": [PASS_ADDER, ["error", "0/0", REALM_MESSAGES.exited(0)]],
  "d-leaves-a-trap": [PASS_ADDER, PASS_GREETER],
  "e-loops-first": [["timeout", "0/0", RUN_MESSAGES.timeout(LIMIT_SECONDS)], PASS_GREETER],
  "f-honest": [PASS_ADDER, PASS_GREETER],
  "g-fails-and-meddles": [["fail", "1/3", "expected 5 to be -5 // Object.is equality"], PASS_GREETER],
};

interface Row {
  learner: string;
  exercise: string;
  state: string;
  passed: number;
  total: number;
  detail: string | null;
}

let rows: Row[];
let code: number;

beforeAll(async () => {
  const dir = tempDir("learner-process");
  for (const [learner, [adder, greeter]] of Object.entries(CLASS)) {
    mkdirSync(join(dir, learner));
    // A learner whose file fails starts from ben's, off by one for negative numbers.
    const base = learner.includes("fails") ? readFileSync(join(FIXTURE, "learners/ben/01-adder.ts"), "utf8") : solution("01-adder");
    writeFileSync(join(dir, learner, "01-adder.ts"), `${base}\n${adder ?? ""}\n`);
    writeFileSync(join(dir, learner, "02-greeter.ts"), `${solution("02-greeter")}\n${greeter ?? ""}\n`);
  }
  const out = join(tempDir("learner-process-out"), "grades.json");
  // One runner, so every learner's files go through the same slot, one learner after another.
  ({ code } = await gradeHere(dir, { timeout: String(LIMIT_SECONDS), jobs: "1", format: "json", out }));
  rows = (JSON.parse(readFileSync(out, "utf8")) as { rows: Row[] }).rows;
}, 120_000);

test("grading finishes", () => {
  expect(code).toBe(0);
  expect(rows).toHaveLength(Object.keys(CLASS).length * 2);
});

test.each(Object.keys(CLASS))("%s: a crash, exit, trap or loop in one exercise changes no other row of the learner", (learner) => {
  const mine = ["01-adder", "02-greeter"].map((exercise) => rows.find((r) => r.learner === learner && r.exercise === exercise)!);
  expect(mine.map((r) => [r.state, `${r.passed}/${r.total}`, r.detail])).toEqual(EXPECTED[learner]);
});
