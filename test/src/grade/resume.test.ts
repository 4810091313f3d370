import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, onTestFinished, test } from "vitest";
import { GRADE_NOTES } from "../../../src/grade/messages.js";
import { classCopy, GOOD_LEARNERS, gradeChild, jsonWithoutMs, learnerResults, resultLines, tempDir, withoutMs, type ChildRun } from "./support.js";
import { alive } from "../../support/processes.js";
import { until } from "../../support/until.js";

// Good learners plus three that error or time out, so a grading takes long enough to cut; the
// one that times out waits on a promise that never settles, so its 3 s cost no CPU (a sync loop
// would burn them every time it is graded, four to six times in this file).
const LEARNERS = [...GOOD_LEARNERS, "02-never-resolves", "03-process-exit", "05-syntax-error"];
const PAIRS = LEARNERS.length * 2;
const FLAGS = { timeout: "3" };
const keysOf = (dir: string) => new Set(resultLines(dir).map((r) => r.key));
const ranIn = (dir: string) => resultLines(dir).filter((r) => r.state !== "missing").length;

interface Outputs {
  table: string;
  json: unknown;
  results: Record<string, string>;
}

/** What one grading leaves behind: the table (ms aside), the json summary (ms aside), every results.json. */
async function outputsOf(table: ChildRun, dir: string, gradeDir?: string): Promise<Outputs> {
  const json = await gradeChild(dir, { ...FLAGS, format: "json" }).done;
  return { table: withoutMs(table.out), json: jsonWithoutMs(json.out), results: learnerResults(dir, gradeDir) };
}

/** The pids of a process's children, from ps. */
function childrenOf(pid: number): number[] {
  const lines = execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" }).trim().split("\n");
  return lines
    .map((l) => l.trim().split(/\s+/).map(Number))
    .filter(([, ppid]) => ppid === pid)
    .map(([p]) => p!);
}

let whole: Outputs;

beforeAll(async () => {
  const dir = classCopy(LEARNERS);
  const run = await gradeChild(dir, { ...FLAGS, jobs: "2" }).done;
  expect(run.code).toBe(0);
  whole = await outputsOf(run, dir);
}, 120_000);

describe.each([["SIGINT"], ["SIGKILL"]] as const)("lab grade killed half-way with %s, then run again", (signal) => {
  test("the second run grades only the pairs the first did not finish, and the table is the uninterrupted one", async () => {
    const dir = classCopy(LEARNERS);
    // A grader killed with SIGKILL cannot remove its scratch folder: TMPDIR puts it in one that
    // is removed, and where the next grading (given the same TMPDIR) must find and remove it.
    const tmp = tempDir("killed");
    const env = signal === "SIGKILL" ? { ...process.env, TMPDIR: tmp } : process.env;
    const scratchIn = () => readdirSync(tmp).filter((name) => name.startsWith("lab-grade-"));
    const { child, done } = gradeChild(dir, { ...FLAGS, jobs: "1" }, { env });
    // Should the test fail before the kill, the grader must stop writing before its folders go.
    onTestFinished(async () => {
      child.kill(signal);
      await done;
    });
    await until(() => ranIn(dir) >= 2, "two graded pairs", 60_000, 25);
    const workers = childrenOf(child.pid!);
    child.kill(signal);
    const stopped = await done;
    const saved = keysOf(dir);
    expect(saved.size).toBeLessThan(PAIRS);

    if (signal === "SIGINT") {
      expect([stopped.code, stopped.err.trimEnd().split("\n").at(-1)]).toEqual([
        130,
        GRADE_NOTES.interrupted(saved.size, PAIRS, join(dir, ".lab-grade/results.jsonl")),
      ]);
    } else {
      expect(stopped.signal).toBe("SIGKILL");
    }
    // Ctrl-C stops the workers; after a SIGKILL, each worker's guard sees its parent gone.
    await until(() => workers.every((pid) => !alive(pid)), "the workers to stop", 10_000, 25);

    // The killed grader's copies of learners' files and hidden tests are still there...
    if (signal === "SIGKILL") expect(scratchIn()).toHaveLength(1);
    const before = resultLines(dir).length;
    const rerun = await gradeChild(dir, { ...FLAGS, jobs: "2" }, { env }).done;
    expect(rerun.code).toBe(0);
    // ...until the next grading removes them with its own.
    expect(scratchIn()).toEqual([]);
    expect(rerun.err.split("\n")[0]).toBe(GRADE_NOTES.planned(PAIRS - saved.size, saved.size, 0));
    const appended = resultLines(dir)
      .slice(before)
      .map((r) => r.key);
    expect(new Set(appended).size).toBe(appended.length);
    expect([...appended, ...saved].sort()).toEqual([...keysOf(dir)].sort());
    expect(keysOf(dir).size).toBe(PAIRS);

    expect(await outputsOf(rerun, dir)).toEqual(whole);
  }, 120_000);
});

describe("grading in three shards, then merging them", () => {
  test("disjoint slices that together are the class, merged into the table and files of one run", async () => {
    const dirs = [1, 2, 3].map(() => classCopy(LEARNERS));
    const shards = await Promise.all(dirs.map((dir, i) => gradeChild(dir, { ...FLAGS, jobs: "1", shard: `${i + 1}/3` }).done));
    expect(shards.map((s) => s.code)).toEqual([0, 0, 0]);
    const slices = dirs.map(keysOf);
    expect(slices.map((s) => s.size)).toEqual([5, 5, 6]);
    expect(new Set(slices.flatMap((s) => [...s])).size).toBe(PAIRS);

    const merged = await gradeChild(undefined, { merge: dirs }).done;
    expect(merged.code).toBe(0);
    expect(merged.err).toContain(GRADE_NOTES.merged(PAIRS, 3, join(dirs[0]!, ".lab-grade")));
    const json = await gradeChild(undefined, { merge: dirs, format: "json" }).done;
    expect({ table: withoutMs(merged.out), json: jsonWithoutMs(json.out), results: learnerResults(dirs[0]!) }).toEqual(whole);
    expect(keysOf(dirs[0]!).size).toBe(PAIRS);
  }, 120_000);
});
