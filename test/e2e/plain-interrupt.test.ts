import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeEach, expect, test } from "vitest";
import { alive, descendants } from "../support/processes.js";
import { tempDir } from "../support/temp-dir.js";

const root = resolve(import.meta.dirname, "../..");
const solution = readFileSync(join(root, "test/fixtures/lab/solutions/01-adder.ts"), "utf8");
let cwd: string;

beforeEach(() => {
  cwd = tempDir("plain");
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws", timeoutSeconds: 30 };\n`);
  mkdirSync(join(cwd, "ws"));
  writeFileSync(join(cwd, "ws/01-adder.ts"), `while (true) {}\n${solution}`);
});

test("lab start without a terminal: Ctrl-C during a run that never ends exits 130 at once, long before the 30 s limit, and leaves no process", async () => {
  const lab = spawn(process.execPath, [join(root, "test/e2e/lab-fixture.mjs"), "start", "1"], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  lab.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  const exited = new Promise<number | null>((done) => lab.on("exit", (code) => done(code)));
  const seen = new Set<number>();
  // The run has started once a worker runs the learner's loop: a process under lab that stays.
  const deadline = Date.now() + 20_000;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  while (seen.size === 0) {
    if (Date.now() > deadline) throw new Error(`no worker started; lab printed: ${stdout}`);
    await sleep(50);
    for (const pid of descendants(lab.pid!)) seen.add(pid);
  }
  await sleep(500);
  for (const pid of descendants(lab.pid!)) seen.add(pid);
  expect(stdout).toContain("No terminal here, so the hidden tests run once (like lab check 1) instead of on every save.");
  const pressed = Date.now();
  lab.kill("SIGINT");
  expect(await exited).toBe(130);
  expect(Date.now() - pressed).toBeLessThan(5_000);
  await sleep(300);
  expect([...seen].filter(alive)).toEqual([]);
}, 60_000);
