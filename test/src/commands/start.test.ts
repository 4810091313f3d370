import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, expect, test } from "vitest";
import { startCommand } from "../../../src/commands/start.js";
import { ProgressStore } from "../../../src/progress/progress-store.js";
import { canMakeReadOnly, makeReadOnly } from "../progress/read-only.js";
import { err, FIXTURE_PATHS, labDir, out } from "./lab-dir.js";

let dir: ReturnType<typeof labDir>;
beforeEach(() => void (dir = labDir()));

const stub = readFileSync(join(FIXTURE_PATHS.exercises, "01-adder/stub.ts"), "utf8");
const solution = readFileSync(join(FIXTURE_PATHS.solutions, "01-adder.ts"), "utf8");

test("without a terminal: creates the file from the stub, runs once as plain lines, exits like lab check", async () => {
  const io = dir.io(false);
  expect(await startCommand("1", {}, io, FIXTURE_PATHS)).toBe(1);
  expect(readFileSync(dir.file(), "utf8")).toBe(stub);
  const lines = out(io).split("\n");
  expect(lines.slice(0, 4)).toEqual([
    "Exercise 1: A fixture exercise for the checker's own tests",
    `Created ${dir.file()} from the stub. Edit it in your editor; every save reruns the hidden tests.`,
    "No terminal here, so the hidden tests run once (like lab check 1) instead of on every save.",
    "Running the hidden tests…",
  ]);
  expect(lines.filter((l) => l.startsWith("  FAIL  ")).length).toBeGreaterThan(0);
  expect(out(io)).not.toMatch(/\u001B/);
  expect(err(io)).toBe("");
  const record = new ProgressStore(dir.workspace, () => {}).exercise("01-adder");
  expect(record.startedAt).toEqual(expect.any(String));
  expect(record.lastRun?.passed).toBe(0);
});

test("CI=true counts as no terminal even on TTY streams; an existing file is kept and a pass is recorded", async () => {
  mkdirSync(dir.workspace);
  writeFileSync(dir.file(), solution);
  const io = { ...dir.io(true), env: { CI: "true" } };
  expect(await startCommand("1", {}, io, FIXTURE_PATHS)).toBe(0);
  expect(readFileSync(dir.file(), "utf8")).toBe(solution);
  expect(out(io)).toContain(`Your file: ${dir.file()}. Edit it in your editor; every save reruns the hidden tests.`);
  expect(out(io).trimEnd().split("\n").at(-1)).toMatch(/^\d+ passed, 0 failed$/);
  expect(io.stdin.rawMode).toEqual([]);
  expect(new ProgressStore(dir.workspace, () => {}).exercise("01-adder").passedAt).toEqual(expect.any(String));
});

test.runIf(canMakeReadOnly())("a read-only workspace is one sentence, not a crash", async () => {
  const undo = makeReadOnly(dir.cwd)!;
  try {
    await expect(startCommand("1", {}, dir.io(false), FIXTURE_PATHS)).rejects.toThrow(
      `lab cannot write ${dir.file()} because ${dir.workspace} is read-only; set "workspace" in lab.config.ts to a folder you can write to.`,
    );
  } finally {
    undo();
  }
});
