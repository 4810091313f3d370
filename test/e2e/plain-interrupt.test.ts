import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeEach, expect, test } from "vitest";
import { alive, descendants } from "../support/processes.js";
import { tempDir } from "../support/temp-dir.js";
import { until } from "../support/until.js";

const root = resolve(import.meta.dirname, "../..");
const solution = readFileSync(join(root, "test/fixtures/lab/solutions/01-adder.ts"), "utf8");
/** The run's time limit: the hanging run ends by itself only after it. */
const LIMIT_MS = 30_000;
let cwd: string;

beforeEach(() => {
  cwd = tempDir("plain");
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws", timeoutSeconds: ${LIMIT_MS / 1000} };\n`);
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
  const track = () => descendants(lab.pid!).forEach((pid) => seen.add(pid));
  await until(() => (track(), seen.size > 0), "a worker starting", 20_000, 50).catch(() => {
    throw new Error(`no worker started; lab printed: ${stdout}`);
  });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  await sleep(500);
  track();
  expect(stdout).toContain("No terminal here, so the hidden tests run once (like lab check 1) instead of on every save.");
  const pressed = Date.now();
  lab.kill("SIGINT");
  expect(await exited).toBe(130);
  // Only the limit bounds it: a busy machine may be slow to exit, never as slow as the limit.
  expect(Date.now() - pressed).toBeLessThan(LIMIT_MS);
  await until(() => [...seen].every((pid) => !alive(pid)), "every process lab started to end", 5_000, 20).catch(() => {
    expect([...seen].filter(alive)).toEqual([]);
  });
}, 60_000);
