import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { alive, descendants } from "../support/processes.js";
import { tempDir } from "../support/temp-dir.js";
import { Tmux } from "./tmux.js";

const root = resolve(import.meta.dirname, "../..");
const solution = readFileSync(join(root, "test/fixtures/lab/solutions/01-adder.ts"), "utf8");
// Step one: add() is done, echoSum() still throws, so some rows stay red.
const halfway = solution.replace(/(export async function echoSum[^{]*\{)[\s\S]*?\n\}\n/, '$1\n  throw new Error("not yet");\n}\n');
const hangsInATest = solution.replace(/return a \+ b;/, "while (true) {}");
const hangsOnLoad = `while (true) {}\n${solution}`;

/** The time limit of a run: a hanging run that nothing stops ends only after it. */
const LIMIT_MS = 30_000;

let cwd: string;
let tmux: Tmux;
let file: string;

beforeEach(() => {
  cwd = tempDir("e2e");
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws", timeoutSeconds: ${LIMIT_MS / 1000} };\n`);
  file = join(cwd, "ws/01-adder.ts");
  tmux = new Tmux();
});
afterEach(() => tmux.kill());

/** Every process lab has had so far, found under the pane's shell; grows each time it is called. */
const seen = new Set<number>();
function track(): number[] {
  for (const pid of descendants(Number(tmux.pane("pane_pid")))) seen.add(pid);
  return [...seen];
}

/** Starts `lab start 1` in the terminal; when it exits, the shell prints its exit code and the tty modes. */
async function startLab(): Promise<Set<number>> {
  seen.clear();
  const launcher = join(root, "test/e2e/lab-fixture.mjs");
  const after = `echo LAB-EXIT=$?; stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo; sleep 600`;
  tmux.start(`cd ${cwd} && unset CI && ${process.execPath} ${launcher} start 1; ${after}`);
  await tmux.until((s) => s.includes(`Created ${file} from the stub.`), "the file being created");
  await tmux.until((s) => s.includes("Run 1:") && s.includes("First failure:"), "the stub's first run, failing", 30_000);
  // lab itself and its pre-forked test worker, which is forked again after every run
  await tmux.until(() => track().length > 1, "lab and its spare test worker in ps");
  return seen;
}

/** After lab exits: exit code 0, the terminal back in cooked mode with a cursor, and none of its processes left. */
async function expectCleanExit(ours: Set<number>, timeoutMs?: number): Promise<void> {
  const done = await tmux.until((s) => /LAB-EXIT=\d+\n.*echo/.test(s), "lab exiting and stty reporting", timeoutMs);
  const [exit, modes] = done.slice(done.indexOf("LAB-EXIT=")).split("\n");
  expect(exit).toBe("LAB-EXIT=0");
  expect(modes!.trim().split(" ").sort()).toEqual(["echo", "icanon"]); // cooked mode again, not raw
  expect(tmux.pane("cursor_flag")).toBe("1");
  for (const pid of ours) expect(alive(pid), `process ${pid} is still running`).toBe(false);
}

test("lab start 1 in a real terminal: red, then green on save; q restores the terminal and leaves no process", async () => {
  const ours = await startLab();
  writeFileSync(file, halfway);
  const red = await tmux.until((s) => s.includes("Run 2:"), "the second run");
  expect(red).toMatch(/✔ adds two numbers/);
  expect(red).toMatch(/✘ asks the model to echo the sum/);
  expect(red).toContain("First failure: asks the model to echo the sum (no-echo bug)");
  expect(red).toContain("not yet");

  writeFileSync(file, solution);
  track();
  const green = await tmux.until((s) => s.includes("Run 3:"), "the third run");
  track();
  expect(green).toMatch(/Run 3: all \d+ passed/);
  expect(green).not.toContain("✘");
  expect(green).toContain("Compare with the reference solution: lab solution 1");
  expect(green).toContain("run 2 · 2 of 3 passed");

  tmux.keys("q");
  await expectCleanExit(ours);
}, 60_000);

test.each([
  ["inside a test", hangsInATest],
  ["while the file loads", hangsOnLoad],
])(
  "Ctrl-C during a run that never ends (%s): lab stops it at once, long before the 30 s limit, and everything is gone",
  async (_where, hangs) => {
    const ours = await startLab();
    writeFileSync(file, hangs);
    await tmux.until((s) => s.includes("Running the hidden tests…"), "the hanging run starting");
    track();
    const pressed = Date.now();
    tmux.keys("C-c");
    track();
    await tmux.until((s) => s.includes("Stopping the run in progress…"), "lab saying it stops the run");
    // Only the limit bounds the wait: a busy machine may be slow, never as slow as the limit.
    await expectCleanExit(ours, LIMIT_MS);
    expect(Date.now() - pressed).toBeLessThan(LIMIT_MS);
  },
  60_000,
);

test("a save during a run that never ends stops it at once: the fix is judged long before the 30 s limit", async () => {
  const ours = await startLab();
  writeFileSync(file, hangsInATest);
  await tmux.until((s) => s.includes("Run 2:") === false && s.includes("Running the hidden tests…"), "the hanging run starting");
  await new Promise((r) => setTimeout(r, 1_000)); // it really hangs
  const fixed = Date.now();
  writeFileSync(file, solution);
  // Left to hang, the run would end at its limit, at most LIMIT_MS - 1 s from here; the fix's verdict comes well before.
  const green = await tmux.until((s) => /Run \d+: all \d+ passed/.test(s), "the fix's verdict", LIMIT_MS - 5_000);
  expect(Date.now() - fixed).toBeLessThan(LIMIT_MS - 5_000);
  expect(green).toContain("run 2 · stopped for your new save");
  tmux.keys("q");
  await expectCleanExit(ours);
}, 60_000);
