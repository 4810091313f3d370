import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { refusedImport } from "../../../checker/run/walls/import-wall.js";
import { pidNamespaces } from "../../../checker/run/walls/pid-namespace.js";
import { RUN_MESSAGES } from "../../../checker/model/result.js";
import { REALM_MESSAGES } from "../../../checker/realm/messages.js";
import { refusedSignal } from "../../../checker/run/walls/signal-wall.js";
import { GRADE_REASONS } from "../../../src/grade/messages.js";
import { armHostiles, importIn, SECRET, SOLUTION_MARK, type Armed } from "./hostile-arm.js";
import { classCopy, FIXTURE, GOOD_LEARNERS, GOOD_TABLE, gradeChild, hashTree, HOSTILE_LEARNERS, PATHS, tableRows, tempDir, type ChildRun } from "./support.js";

/** A fake key in the grading process's environment: it must reach no learner code and no output. */
const KEY = "sk-ant-api03-FAKE-lab-grade-test-key-7f3a9c";
const LIMIT_SECONDS = 5;
const denied = `${RUN_MESSAGES.importFailed("Access to this API has been restricted")} — ${GRADE_REASONS.sandbox}.`;

/** What each hostile submission must come to: its row's state and reason, word for word (a pattern where it names a pid). */
const expected = (): Record<string, [state: string, reason: string | RegExp]> => ({
  "01-sync-loop": ["timeout", RUN_MESSAGES.timeout(LIMIT_SECONDS)],
  "02-never-resolves": ["timeout", RUN_MESSAGES.timeout(LIMIT_SECONDS)],
  "03-process-exit": ["error", REALM_MESSAGES.exited(0)],
  "04-throws-at-import": ["error", RUN_MESSAGES.importFailed("boom at import")],
  "05-syntax-error": ["error", RUN_MESSAGES.syntax("05-syntax-error/01-adder.ts", 5, 14, "Unexpected token")],
  "06-allocates-1gb": ["error", GRADE_REASONS.outOfMemory(512)],
  "07-spawns-children": ["error", denied],
  "08-prints-api-key": ["error", RUN_MESSAGES.importFailed("stole the key: undefined")],
  "09-writes-outside": ["error", denied],
  "10-deletes-hidden-test": ["error", denied],
  "11-allocates-1gb-buffer": ["error", GRADE_REASONS.outOfMemory(512)],
  "12-reads-secrets": ["error", denied],
  "13-raw-import-outside": ["error", refusedImport(importIn(dir, "13-raw-import-outside"), "query")],
  "14-reexports-solution": ["error", refusedImport(importIn(dir, "14-reexports-solution"), "outside")],
  "15-reexports-classmate": ["error", refusedImport(importIn(dir, "15-reexports-classmate"), "outside")],
  "16-computed-dynamic-import": ["error", refusedImport(armed.solution, "outside")],
  "17-symlink-to-solutions": ["error", refusedImport("./solutions/01-adder.ts", "outside")],
  // In a PID namespace the parent is the namespace's shell, pid 1; elsewhere it is lab grade.
  "18-kills-parent": [
    "error",
    pidNamespaces() ? RUN_MESSAGES.importFailed(refusedSignal(1)) : new RegExp(`^${escape(RUN_MESSAGES.importFailed("lab refused to signal process "))}\\d+: `),
  ],
  "19-kills-own-group": ["error", RUN_MESSAGES.importFailed(refusedSignal(0))],
  "20-import-meta-glob": ["error", refusedImport("import.meta.glob", "glob")],
  "21-reads-new-url": ["error", denied],
  "22-create-require": ["error", denied],
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

interface JsonRow {
  learner: string;
  exercise: string;
  state: string;
  detail: string | null;
}

let dir: string;
let cwd: string;
let scratch: string;
let armed: Armed;
let before: { class: Record<string, string>; exercises: Record<string, string>; fixture: Record<string, string> };
let graded: ChildRun;
let again: ChildRun;
let rows: JsonRow[];

const hostileChildren = () =>
  execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes("lab-hostile-child"));

beforeAll(async () => {
  dir = classCopy([...GOOD_LEARNERS, ...HOSTILE_LEARNERS]);
  armed = armHostiles(dir);
  cwd = tempDir("cwd");
  // The grader's temp folder, so its workers (whose flags name it) can be told from any other lab's.
  scratch = realpathSync(tempDir("tmp"));
  // The key also sits in a file beside the grader, where 12-reads-secrets looks first.
  writeFileSync(join(cwd, ".env"), `ANTHROPIC_API_KEY=${KEY}\n`);
  before = { class: hashTree(dir), exercises: hashTree(PATHS.exercises), fixture: hashTree(FIXTURE) };
  const env = { ...process.env, ANTHROPIC_API_KEY: KEY, TMPDIR: scratch };
  graded = await gradeChild(dir, { timeout: String(LIMIT_SECONDS), jobs: "2" }, { env, cwd }).done;
  again = await gradeChild(dir, { timeout: String(LIMIT_SECONDS), format: "json", out: join(cwd, "grades.json") }, { env, cwd }).done;
  rows = (JSON.parse(readFileSync(join(cwd, "grades.json"), "utf8")) as { rows: JsonRow[] }).rows;
}, 180_000);

describe("a class with twenty-two hostile submissions", () => {
  test("grading finishes and exits 0", () => {
    expect(graded).toMatchObject({ code: 0, signal: null });
    expect(again).toMatchObject({ code: 0, signal: null });
    expect(HOSTILE_LEARNERS).toEqual(Object.keys(expected()));
  });

  test.each(HOSTILE_LEARNERS)("%s ends as an error whose reason names what stopped it", (learner) => {
    const [state, reason] = expected()[learner]!;
    const row = rows.find((r) => r.learner === learner && r.exercise === "01-adder")!;
    expect(row.state).toBe(state);
    if (typeof reason === "string") expect(row.detail).toBe(reason);
    else expect(row.detail).toMatch(reason);
  });

  test("the secret outside the class and the reference solution's text appear in no row, report, log or results file", () => {
    const outputs = [graded.out, graded.err, again.out, again.err, readFileSync(join(cwd, "grades.json"), "utf8")];
    const files = Object.keys(hashTree(join(dir, ".lab-grade"), "\0")).map((f) => readFileSync(join(dir, ".lab-grade", f), "utf8"));
    expect(files.join("")).toContain("13-raw-import-outside");
    for (const text of [...outputs, ...files]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(SOLUTION_MARK);
    }
  });

  test("no worker of this grading (nor anything it started) is left running, and its temp folders are gone", () => {
    const ours = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
      .split("\n")
      .filter((line) => line.includes(scratch));
    expect(ours).toEqual([]);
    expect(readdirSync(scratch).filter((name) => name.startsWith("lab-"))).toEqual([]);
  });

  test("the good learners' rows are exactly what grading them alone gives", () => {
    const good = tableRows(graded.out).filter(([learner]) => GOOD_LEARNERS.includes(learner!));
    expect(good).toEqual(tableRows(GOOD_TABLE));
    expect(good).toHaveLength(10);
  });

  test("the learners' files, the hidden tests and the whole fixture are unchanged", () => {
    expect(hashTree(dir)).toEqual(before.class);
    expect(hashTree(PATHS.exercises)).toEqual(before.exercises);
    expect(hashTree(FIXTURE)).toEqual(before.fixture);
    expect(existsSync(join(PATHS.exercises, "01-adder/hidden.test.ts"))).toBe(true);
  });

  test("nothing was written outside: not in the working folder, the temp folder or the class folder", () => {
    expect(readdirSync(cwd).sort()).toEqual([".env", "grades.json"]);
    expect(existsSync(join(tmpdir(), "lab-hostile-wrote-here.txt"))).toBe(false);
    expect(existsSync(join(dir, "lab-hostile-wrote-here.txt"))).toBe(false);
  });

  test("no child process of a submission is left running", () => {
    expect(hostileChildren()).toEqual([]);
  });

  test("the API key reaches no learner code and appears in no output or file", () => {
    const outputs = [graded.out, graded.err, again.out, again.err, readFileSync(join(cwd, "grades.json"), "utf8")];
    const files = Object.keys(hashTree(join(dir, ".lab-grade"), "\0")).map((f) => readFileSync(join(dir, ".lab-grade", f), "utf8"));
    expect(files.length).toBeGreaterThan(HOSTILE_LEARNERS.length);
    for (const text of [...outputs, ...files]) expect(text).not.toContain(KEY);
    expect(rows.find((r) => r.learner === "08-prints-api-key")!.detail).toContain("stole the key: undefined");
  });
});
