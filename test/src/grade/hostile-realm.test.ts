/**
 * A class whose files reach for the test runner itself, graded against the lab's real
 * exercises 1 and 2 as an instructor would (a class folder outside the lab), and checked one
 * by one with `lab check 1 --file`. On 4d33729, before learner code had a realm of its own,
 * 24 (task flags) and 26 (the IPC channel rewritten) got 12/12, 25 (the global expect) 5/12, 28's
 * untouched 02-retry stub passed, and 29 (bytes on the channel) killed lab check and lab grade.
 * Here every route must fail, each with the sentence that says what happened.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { REALM_MESSAGES } from "../../../checker/realm/messages.js";
import { CHANNEL_MESSAGES } from "../../../checker/run/workers/channel.js";
import { LEARNER_WORDS } from "../../../src/report/learner-words.js";
import { classCopy, ROOT } from "./support.js";

const LEARNERS = [
  "24-flips-task-flags",
  "25-patches-expect",
  "26-rewrites-ipc",
  "27-disconnects",
  "28-timer-into-next",
  "29-garbage-on-ipc",
  "30-exits-zero-mid-test",
  "31-forges-a-frame",
  "32-starts-a-thread",
];
const LAB = join(ROOT, "bin/lab.js");
const NOT_IMPLEMENTED = "not implemented";

/**
 * What each learner's exercise-1 row must say: the route found nothing of the runner (the
 * file's own "not implemented" is what fails it), or the run was stopped, by name.
 */
const WHY: Record<string, string> = {
  "24-flips-task-flags": NOT_IMPLEMENTED,
  "26-rewrites-ipc": NOT_IMPLEMENTED,
  "27-disconnects": NOT_IMPLEMENTED,
  "29-garbage-on-ipc": CHANNEL_MESSAGES.forged(CHANNEL_MESSAGES.badLength),
  "30-exits-zero-mid-test": REALM_MESSAGES.exited(0),
  "31-forges-a-frame": CHANNEL_MESSAGES.forged(CHANNEL_MESSAGES.badMac),
  // Node's own refusal: the realm's flags give it no right to start a thread.
  "32-starts-a-thread": "Access to this API has been restricted",
};

interface Row {
  learner: string;
  exercise: string;
  state: string;
  passed: number;
  total: number;
  reason: string | null;
  tests: Array<{ name: string; status: string; message: string | null }>;
}

let graded: ReturnType<typeof spawnSync>;
let rows: Row[];
const rowOf = (learner: string, exercise: string) => rows.find((r) => r.learner === learner && r.exercise === exercise)!;

/** 28's files as an instructor would find them: the solution with a timer behind, and the untouched stub of exercise 2. */
function layTimerLearner(dir: string): void {
  const learner = join(dir, "28-timer-into-next");
  const file = join(learner, "01-tool-loop.ts");
  writeFileSync(file, readFileSync(file, "utf8").replace("// __LAB_REFERENCE_SOLUTION__", readFileSync(join(ROOT, "solutions/01-tool-loop.ts"), "utf8")));
  copyFileSync(join(ROOT, "exercises/02-retry/stub.ts"), join(learner, "02-retry.ts"));
}

beforeAll(() => {
  const dir = classCopy(LEARNERS);
  layTimerLearner(dir);
  graded = spawnSync(process.execPath, [LAB, "grade", dir, "--exercises", "1,2", "--timeout", "30", "--jobs", "2"], { cwd: ROOT, encoding: "utf8" });
  rows = readFileSync(join(dir, ".lab-grade/results.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Row);
}, 300_000);

describe("graded as a class, each route reaching for the runner fails", () => {
  test("lab grade finishes, exits 0, and has a row for every learner", () => {
    expect(graded.status, String(graded.stderr)).toBe(0);
    expect(new Set(rows.map((r) => r.learner))).toEqual(new Set(LEARNERS));
  });

  test.each(LEARNERS.filter((l) => l !== "28-timer-into-next" && l !== "25-patches-expect"))("%s: not one test passes, and each says why", (learner) => {
    const row = rowOf(learner, "01-tool-loop");
    expect(row.passed).toBe(0);
    expect(row.state).not.toBe("pass");
    expect(row.tests.every((t) => t.status !== "pass")).toBe(true);
    expect([row.reason ?? "", ...row.tests.map((t) => t.message ?? "")].some((message) => message.includes(WHY[learner]!))).toBe(true);
  });

  test("25-patches-expect: the matchers it reached for are its own realm's; every assertion still judges", () => {
    const row = rowOf("25-patches-expect", "01-tool-loop");
    expect(row.passed).toBe(0);
    expect(row.tests.every((t) => t.status !== "pass" && (t.message ?? "") !== "")).toBe(true);
  });

  test("28-timer-into-next: its correct exercise 1 passes, and the timer it left reaches nothing of exercise 2, whose stub fails", () => {
    const own = rowOf("28-timer-into-next", "01-tool-loop");
    expect(own).toMatchObject({ state: "pass", passed: own.total });
    expect(own.total).toBeGreaterThan(0);
    const next = rowOf("28-timer-into-next", "02-retry");
    expect(next.passed).toBe(0);
    expect(next.tests.length).toBeGreaterThan(0);
    expect(next.tests.some((t) => (t.message ?? "").includes(NOT_IMPLEMENTED))).toBe(true);
  });
});

/** lab check says it in the learner's words: a file that still throws the stub's placeholder has not started. */
const inLabCheck = (why: string) => (why === NOT_IMPLEMENTED ? LEARNER_WORDS.notStarted : why);

describe("checked alone with lab check --file, walled, each fails the same way", () => {
  test.each(Object.entries(WHY).map(([learner, why]) => [learner, inLabCheck(why)]))("%s", (learner, why) => {
    const file = join(ROOT, "test/fixtures/class/hostile-realm", learner, "01-tool-loop.ts");
    const run = spawnSync(process.execPath, [LAB, "check", "1", "--file", file, "--json"], { cwd: ROOT, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(1);
    const result = JSON.parse(run.stdout.slice(run.stdout.indexOf("{"))) as {
      passed: number;
      tests: Array<{ failure?: { message: string } }>;
      error?: { message: string };
    };
    expect(result.passed).toBe(0);
    expect([result.error?.message ?? "", ...result.tests.map((t) => t.failure?.message ?? "")].some((message) => message.includes(why))).toBe(true);
  });
});
