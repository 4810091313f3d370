import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { RunResult } from "../../../checker/model/result.js";
import { CHECK_NOTES, checkCommand } from "../../../src/commands/check.js";
import { CONTEXT_MESSAGES } from "../../../src/commands/context.js";
import { LEARNER_WORDS } from "../../../src/report/learner-words.js";
import { TypeChecker, type TypeCheck } from "../../../src/typecheck/type-checker.js";
import { captureIo } from "../../support/io.js";
import { tempDir } from "../../support/temp-dir.js";

const root = join(import.meta.dirname, "../../..");
const fixture = join(root, "test/fixtures/lab");
const paths = { root, exercises: join(fixture, "exercises"), solutions: join(fixture, "solutions") };
const solution = readFileSync(join(fixture, "solutions/01-adder.ts"), "utf8");

/** A folder with its own lab.config.ts, so the workspace and time limit are the test's. */
function project(timeoutSeconds = 10, typeCheck = false) {
  const cwd = tempDir("check");
  // The type checker's cold start is tested once, below; the other tests leave it off.
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws", timeoutSeconds: ${timeoutSeconds}, typeCheck: ${typeCheck} };\n`);
  mkdirSync(join(cwd, "ws"));
  return { cwd, file: join(cwd, "ws/01-adder.ts") };
}

describe("lab check on the fixture exercise", () => {
  test("the workspace file passing every test: one PASS row each, the closing line, exit 0", async () => {
    const { cwd, file } = project();
    writeFileSync(file, solution);
    const io = captureIo(cwd);
    expect(await checkCommand("1", {}, io, paths)).toBe(0);
    const lines = io.out().trimEnd().split("\n");
    expect(lines.filter((l) => l.startsWith("  PASS  "))).toHaveLength(3);
    expect(lines.at(-1)).toBe("3 passed, 0 failed");
  });

  test("the stub: every row failed, exit 1", async () => {
    const { cwd } = project();
    const io = captureIo(cwd);
    expect(await checkCommand("1", { file: join(fixture, "exercises/01-adder/stub.ts") }, io, paths)).toBe(1);
    expect(
      io
        .out()
        .split("\n")
        .filter((l) => l.startsWith("  FAIL  ")),
    ).toHaveLength(3);
    expect(io.out().trimEnd().split("\n").at(-1)).toBe("0 passed, 3 failed");
    // In the learner's words: nothing written yet, so no bug of theirs to explain.
    expect(io.out().split(LEARNER_WORDS.notStarted).length - 1).toBe(3);
    expect(io.out()).not.toContain("guards against");
  });

  test("a syntax error: exit 1, file:line:col, the line and a caret under the column as the screen shows them, and no '0 passed, 0 failed'", async () => {
    const { cwd, file } = project();
    writeFileSync(file, "export function add(a: number, b: number) {\n  return a + ;\n}\n");
    const io = captureIo(cwd);
    expect(await checkCommand("1", {}, io, paths)).toBe(1);
    expect(io.out()).toContain(`Syntax error in ${file}:2:14: Unexpected token\n  2 |   return a + ;\n    |              ^\n`);
    expect(io.out().trimEnd().split("\n").at(-1)).toBe("No test ran: your file has a syntax error.");
  });

  test("a type error is a warning above the closing line: the tests still run and pass, exit 0", async () => {
    const { cwd, file } = project(10, true);
    writeFileSync(file, `${solution}\nexport const answer: number = "forty-two";\n`);
    // The lab's own type checker, asked first: its answer is there before the verdict is.
    const checker = new TypeChecker();
    const answer = await checker.check(file);
    const io = captureIo(cwd);
    expect(await checkCommand("1", {}, io, paths, () => ({ check: () => Promise.resolve(answer), close: () => checker.close() }))).toBe(0);
    const lines = io.out().trimEnd().split("\n");
    const line = solution.split("\n").length + 1;
    expect(lines.slice(-4)).toEqual([
      "A type error in your file (a warning: the tests ran anyway):",
      `  ${line}:14 Type 'string' is not assignable to type 'number'.`,
      "",
      "3 passed, 0 failed",
    ]);
  }, 120_000);

  test("a type check that has not answered when the verdict is ready is left out, said so, and never waited for", async () => {
    const { cwd, file } = project(10, true);
    writeFileSync(file, solution);
    let closed = false;
    const silent: TypeCheck = { check: () => new Promise(() => {}), close: async () => void (closed = true) };
    const io = captureIo(cwd);
    expect(await checkCommand("1", {}, io, paths, () => silent)).toBe(0);
    expect(io.out().trimEnd().split("\n").slice(-3)).toEqual([CHECK_NOTES.typeCheckPending, "", "3 passed, 0 failed"]);
    expect(closed).toBe(true);
  });

  test("a syntax error with the type checker on: only the syntax error, no type-error warning repeating it", async () => {
    const { cwd, file } = project(10, true);
    writeFileSync(file, "export function add(a: number, b: number) {\n  return a + ;\n}\n");
    const io = captureIo(cwd);
    expect(await checkCommand("1", {}, io, paths)).toBe(1);
    expect(io.out()).toContain(`Syntax error in ${file}:2:14: Unexpected token`);
    expect(io.out()).not.toContain("type error");
    expect(io.out().trimEnd().split("\n").at(-1)).toBe("No test ran: your file has a syntax error.");
  }, 120_000);

  test("while (true) {}: exit 1 within the configured limit, saying it did not finish", async () => {
    const { cwd, file } = project(2);
    const secondsOf = async (source: string, exit: number) => {
      writeFileSync(file, source);
      const io = captureIo(cwd);
      const started = performance.now();
      expect(await checkCommand("1", {}, io, paths)).toBe(exit);
      return { io, seconds: (performance.now() - started) / 1000 };
    };
    // The yardstick: the same command on a passing file, timed now, so a busy machine weighs on both.
    const passing = await secondsOf(solution, 0);
    const spinning = await secondsOf(solution.replace("return a + b;", "while (true) {}"), 1);
    expect(spinning.io.out()).toContain("The run did not finish in 2 s: look for a loop that never ends or a promise that never settles.");
    // Past the 2 s limit it costs about one passing check (starting lab and the run, then the kill).
    expect((spinning.seconds - 2) / passing.seconds).toBeLessThan(2.5);
  }, 40_000);

  test("--json prints the result object", async () => {
    const { cwd } = project();
    const io = captureIo(cwd);
    await checkCommand("1", { file: join(fixture, "solutions/01-adder.ts"), json: true }, io, paths);
    expect(JSON.parse(io.out())).toMatchObject({ exercise: "01-adder", status: "passed", passed: 3, failed: 0, total: 3, error: null });
  });

  test("what the hidden test prints on purpose is the test's report: under its PASS row, labelled apart from the learner's output, and in --json", async () => {
    const { cwd, file } = project();
    writeFileSync(file, solution.replace("return a + b;", "console.log(`DEBUG ${a} + ${b}`);\n  return a + b;"));
    const io = captureIo(cwd);
    expect(await checkCommand("1", {}, io, paths)).toBe(0);
    const lines = io.out().split("\n");
    const row = lines.findIndex((l) => l.startsWith("  PASS  adds two numbers (off-by-one bug)"));
    expect(lines.slice(row + 1, row + 5)).toEqual([
      "        printed:",
      "        │ DEBUG 2 + 3",
      "        the test's report:",
      "        │ add(2, 3) returned 5",
    ]);
    expect(lines[row + 5]).toMatch(/^ {2}PASS {2}asks the model to echo the sum/);
    const json = captureIo(cwd);
    await checkCommand("1", { json: true }, json, paths);
    const tests = (JSON.parse(json.out()) as RunResult).tests;
    expect(tests.map((t) => [t.output, t.report])).toEqual([
      ["DEBUG 2 + 3\n", "add(2, 3) returned 5\n"],
      ["DEBUG 2 + 3\n", undefined],
      [undefined, undefined],
    ]);
  });

  test("no workspace file yet: says to run lab start first", async () => {
    const { cwd, file } = project();
    await expect(checkCommand("1", {}, captureIo(cwd), paths)).rejects.toThrow(CONTEXT_MESSAGES.noWorkspaceFile(file, 1));
    expect(CONTEXT_MESSAGES.noWorkspaceFile(file, 1)).toBe(`There is no file at ${file} yet: run lab start 1 first to create it.`);
  });

  test("an exercise that does not exist names the way to list them", async () => {
    const { cwd } = project();
    await expect(checkCommand("9", {}, captureIo(cwd), paths)).rejects.toThrow("There is no exercise 9; run lab list to see all 1.");
  });
});

describe("lab check as a process, on the real exercise 1", () => {
  const bin = join(root, "bin/lab.js");
  test("the solution exits 0 and the stub exits 1 with every row failed", () => {
    const pass = spawnSync(process.execPath, [bin, "check", "1", "--file", "solutions/01-tool-loop.ts"], { cwd: root, encoding: "utf8" });
    expect(pass.status).toBe(0);
    expect(pass.stdout).toMatch(/^(\d+) passed, 0 failed$/m);
    const fail = spawnSync(process.execPath, [bin, "check", "1", "--file", "exercises/01-tool-loop/stub.ts"], { cwd: root, encoding: "utf8" });
    expect(fail.status).toBe(1);
    const total = Number(/^(\d+) passed/m.exec(pass.stdout)![1]);
    expect(fail.stdout).toContain(`0 passed, ${total} failed`);
    expect(fail.stdout.split("\n").filter((l) => l.startsWith("  FAIL  "))).toHaveLength(total);
  }, 180_000); // two whole processes, each with a cold type check after its run

  test("a failing assertion reads under the test's sentence: its own sentence checked, then the matcher's text in plain words as what was found", () => {
    const mutant = "dist/exercises/01-tool-loop/mutants/split-results.ts";
    const run = spawnSync(process.execPath, [bin, "check", "1", "--file", mutant], { cwd: root, encoding: "utf8" });
    expect(run.status).toBe(1);
    const lines = run.stdout.split("\n");
    const row = lines.findIndex((l) => l.startsWith("  FAIL  ") && l.endsWith("(split-results bug)"));
    expect(row).toBeGreaterThan(-1);
    expect(lines.slice(row + 1, row + 5)).toEqual([
      "        checked: user messages that carried results back",
      "        found: a length of 6; it should be 2",
      "        expected: 2",
      "        received: 6",
    ]);
    expect(lines[row + 5]).toMatch(/^ {8}this test guards against the split-results bug: Results travel in one user message each/);
  }, 120_000);
});

describe("a real exercise's promised table", () => {
  test("lab check 5 --file solutions/05-semantic-cache.ts --json: the threshold sweep the lesson promises is the sweep test's report, and no other's", async () => {
    const { cwd } = project(20);
    const io = captureIo(cwd);
    const file = join(root, "solutions/05-semantic-cache.ts");
    expect(await checkCommand("5", { file, json: true }, io, { root, exercises: join(root, "exercises"), solutions: join(root, "solutions") })).toBe(0);
    const tests = (JSON.parse(io.out()) as RunResult).tests;
    const sweep = tests.find((t) => t.name.startsWith("the sweep 0.88 … 0.995"))!;
    expect(sweep.state).toBe("passed");
    expect(sweep.report ?? "(no report)").toContain("Threshold sweep over the staged pairs:\nthreshold   hit rate (of 25)   false-hit rate (of 25)\n");
    // One row per threshold the lesson names, each with both rates and their counts.
    const rows = sweep.report!.match(/^ +0\.\d{3} +\d\.\d\d \( ?\d+\) +\d\.\d\d \( ?\d+\)$/gm) ?? [];
    expect(rows.map((r) => r.trim().split(/ +/)[0])).toEqual(["0.880", "0.900", "0.920", "0.940", "0.950", "0.960", "0.970", "0.980", "0.990", "0.995"]);
    expect(tests.filter((t) => t.report?.includes("Threshold sweep"))).toHaveLength(1);
    expect(tests.filter((t) => t.output !== undefined)).toEqual([]);
  }, 60_000);
});

describe("an exercise folder that does not load", () => {
  test("is named once on stderr and left out, and the other exercises still run", async () => {
    const { cwd } = project();
    const exercises = tempDir("half-written");
    cpSync(join(fixture, "exercises/01-adder"), join(exercises, "01-adder"), { recursive: true });
    mkdirSync(join(exercises, "02-half-written"));
    const io = captureIo(cwd);
    const file = join(fixture, "solutions/01-adder.ts");
    expect(await checkCommand("1", { file }, io, { ...paths, exercises })).toBe(0);
    // The solution is outside this project's workspace, so it also runs walled off (check-walls.test.ts).
    expect(io.err()).toBe(`${CONTEXT_MESSAGES.skipped("exercises/02-half-written: exercise.json is missing.")}\n${CHECK_NOTES.walled(file)}\n`);
    expect(CONTEXT_MESSAGES.skipped("x")).toBe("Skipping an exercise that does not load: x");
  });
});
