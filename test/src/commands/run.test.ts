import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import { CONTEXT_MESSAGES } from "../../../src/commands/context.js";
import { runCommand } from "../../../src/commands/run.js";
import { RUN_MESSAGES } from "../../../src/run/run-demo.js";
import { tempDir } from "../../support/temp-dir.js";
import { FIXTURE_PATHS, labDir } from "./lab-dir.js";
import { lab } from "./lab-process.js";

// `lab run` as a learner types it: through bin/lab.js (its child process is the built one in dist/).
const root = resolve(import.meta.dirname, "../../..");
const exercises = loadExercises(join(root, "exercises"), join(root, "solutions"));

/** A lab folder with a workspace holding `files`. */
function folder(files: Record<string, string> = {}): string {
  const cwd = tempDir("run");
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws" };\n`);
  mkdirSync(join(cwd, "ws"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, "ws", name), text);
  return cwd;
}

const solution = (id: string) => readFileSync(join(root, "solutions", `${id}.ts`), "utf8");

test("lab run 12 runs the harness through an approval and writes the JSONL trace that lab trace shows", async () => {
  const cwd = folder({ "12-five-exits.ts": solution("12-five-exits") });
  const run = await lab(["run", "12"], cwd);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toContain("It stopped: interrupted, after 2 model calls");
  expect(run.stdout).toContain('A person approves delete_file {"path":"access.log"}, and the run resumes from its state.');
  expect(run.stdout).toMatch(/It returned:\n {2}\{\n {4}status: 'completed',/);
  const trace = join(cwd, "ws/runs/12-five-exits.jsonl");
  expect(run.stdout).toContain(RUN_MESSAGES.trace(trace, "ws/runs/12-five-exits.jsonl"));
  const shown = await lab(["trace", "ws/runs/12-five-exits.jsonl"], cwd);
  expect(shown.code).toBe(0);
  // Each event's line starts with its time ("+0.012s"); the wall-time summary after them does not.
  const kinds = shown.stdout
    .trimEnd()
    .split("\n")
    .filter((l) => /^\s*\+\d/.test(l))
    .map((l) => l.trim().split(/\s+/)[1]);
  expect(kinds).toEqual(["turn", "tool_start", "tool_result", "turn", "approval_required", "run_stopped", "tool_start", "tool_result", "turn", "run_stopped"]);
  expect(shown.stdout).toMatch(/run_stopped +interrupted \(approval\), 2 turns/);
  expect(shown.stdout).toMatch(/run_stopped +completed, 3 turns/);
}, 60_000);

test("what the learner's code prints is shown as it comes, behind a bar among the demo's own lines, then what it returned", async () => {
  const source = solution("01-tool-loop");
  const body = source.indexOf("{", source.indexOf("): Promise<string>", source.indexOf("export async function agent(")));
  const printing = `${source.slice(0, body + 1)}\n  console.log("DEBUG goal:", goal);\n  console.error("DEBUG on stderr");${source.slice(body + 1)}`;
  const cwd = folder({ "01-tool-loop.ts": printing });
  const run = await lab(["run", "1", "What is the capital of Peru and its weather?"], cwd);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const lines = run.stdout.split("\n");
  expect(lines.slice(0, 4)).toEqual([
    RUN_MESSAGES.header(1, "The tool-calling loop"),
    RUN_MESSAGES.file(join(cwd, "ws/01-tool-loop.ts")),
    RUN_MESSAGES.goal("What is the capital of Peru and its weather?"),
    "",
  ]);
  expect(lines).toContain("│ DEBUG goal: What is the capital of Peru and its weather?");
  expect(lines).toContain("│ DEBUG on stderr");
  expect(lines.indexOf("│ DEBUG goal: What is the capital of Peru and its weather?")).toBeLessThan(lines.indexOf('tool get_capital {"country":"Peru"}'));
  expect(run.stdout).toContain(`${RUN_MESSAGES.returned}\n  'The weather in Lima: 16°C with drizzle.'\n`);
}, 60_000);

test("the stub throws, a syntax error is said where it is, an await that never settles is said so: exit 1 each, nothing hangs", async () => {
  const cwd = folder({ "bad.ts": "export function agent( {\n", "hang.ts": "export async function agent() {\n  return new Promise(() => {});\n}\n" });
  const stub = await lab(["run", "1", "--file", join(root, "exercises/01-tool-loop/stub.ts")], cwd);
  expect([stub.code, stub.stdout.trimEnd().split("\n").at(-1)]).toEqual([1, RUN_MESSAGES.threw("Error: not implemented")]);
  const bad = await lab(["run", "1", "--file", "ws/bad.ts"], cwd);
  expect([bad.code, bad.stdout.trimEnd().split("\n").at(-1)]).toEqual([
    1,
    RUN_MESSAGES.notBundled(`Syntax error in ${join(cwd, "ws/bad.ts")}:2:1: Expected \`}\` but found \`EOF\``),
  ]);
  const hang = await lab(["run", "1", "--file", "ws/hang.ts"], cwd);
  expect([hang.code, hang.stdout.trimEnd().split("\n").at(-1)]).toEqual([1, RUN_MESSAGES.neverSettled]);
}, 60_000);

describe("wrong usage is one sentence and exit 2", () => {
  test("an unknown exercise, and a workspace file not written yet", async () => {
    const cwd = folder();
    const unknown = await lab(["run", "99"], cwd);
    expect([unknown.code, unknown.stderr]).toEqual([2, "There is no exercise 99; run lab list to see all 12.\n"]);
    const missing = await lab(["run", "1"], cwd);
    expect([missing.code, missing.stderr]).toEqual([2, `${CONTEXT_MESSAGES.noWorkspaceFile(join(cwd, "ws/01-tool-loop.ts"), 1)}\n`]);
    const none = await lab(["run"], cwd);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^error: missing required argument 'exercise'/);
  }, 60_000);

  test("an exercise without a demo task", async () => {
    const dir = labDir();
    writeFileSync(join(dir.cwd, "adder.ts"), "export const add = (a: number, b: number) => a + b;\n");
    await expect(runCommand("1", undefined, { file: "adder.ts" }, dir.io(), FIXTURE_PATHS)).rejects.toThrow(RUN_MESSAGES.noDemo(1));
    expect(RUN_MESSAGES.noDemo(1)).toBe("Exercise 1 has no demo task (exercises/…/demo.ts), so there is nothing for lab run to run.");
  });
});

test("every exercise has a demo task, and each one returns on its solution", async () => {
  const cwd = folder();
  for (const exercise of exercises) {
    const run = await lab(["run", String(exercise.number), "--file", exercise.solution], cwd);
    expect(run.code, `exercise ${exercise.number}:\n${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toContain(`\n${RUN_MESSAGES.returned}\n`);
  }
}, 180_000);
