import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { drillLines } from "../../src/drill/drill-lines.js";
import { formatSeconds } from "../../src/progress/drills.js";
import { alive, descendants } from "../support/processes.js";
import { tempDir } from "../support/temp-dir.js";
import { until } from "../support/until.js";
import { Tmux } from "./tmux.js";

// `lab drill 1` on the lab's real exercise 1, through bin/lab.js, in a real terminal.
const root = resolve(import.meta.dirname, "../..");
const solution = readFileSync(join(root, "solutions/01-tool-loop.ts"), "utf8");
/** The big clock's top row at 0:00, as three half-block glyphs and a colon. */
const ZERO_CLOCK = "█▀█ ▄ █▀█ █▀█";

let cwd: string;
let tmux: Tmux;
let drillFile: string;
let history: string;

beforeEach(() => {
  cwd = tempDir("e2e-drill");
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws", timeoutSeconds: 30 };\n`);
  drillFile = join(cwd, "ws/drills/01-tool-loop.1.ts");
  history = join(cwd, "ws/.lab/drills.jsonl");
  tmux = new Tmux();
});
afterEach(() => tmux.kill());

const seen = new Set<number>();
function track(): void {
  for (const pid of descendants(Number(tmux.pane("pane_pid")))) seen.add(pid);
}

/** Starts `lab drill 1 …` in the terminal; when it exits, the shell prints its exit code and the tty modes. */
async function startDrill(...flags: string[]): Promise<void> {
  seen.clear();
  const after = `echo LAB-EXIT=$?; stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo; sleep 600`;
  tmux.start(`cd ${cwd} && unset CI && ${process.execPath} ${join(root, "bin/lab.js")} drill 1 ${flags.join(" ")}; ${after}`);
  await tmux.until((s) => s.includes(`Drill 1 of exercise 1: ${drillFile}`), "the drill file being written");
  await tmux.until((s) => s.includes("First failure:") && s.includes("Run 1:"), "the first run, red, before any save", 30_000);
  await tmux.until(() => (track(), seen.size > 1), "lab and its test worker in ps");
}

/** After lab exits: exit code 0, the terminal back in cooked mode with a cursor, and none of its processes left. */
async function expectCleanExit(): Promise<string> {
  const done = await tmux.until((s) => /LAB-EXIT=\d+\n.*echo/.test(s), "lab exiting and stty reporting");
  const [exit, modes] = done.slice(done.indexOf("LAB-EXIT=")).split("\n");
  expect(exit).toBe("LAB-EXIT=0");
  expect(modes!.trim().split(" ").sort()).toEqual(["echo", "icanon"]);
  expect(tmux.pane("cursor_flag")).toBe("1");
  for (const pid of seen) expect(alive(pid), `process ${pid} is still running`).toBe(false);
  return done;
}

const historyLines = () =>
  readFileSync(history, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

test("lab drill 1 in a real terminal: a signature-only file, the clock runs from the opening, the solution pasted in turns it green as pasted, one line is recorded and no best", async () => {
  const opened = Date.now();
  await startDrill();
  const given = readFileSync(drillFile, "utf8");
  expect(given).toContain("export async function agent(");
  expect(given).toContain('throw new Error("not implemented");');
  expect(given).not.toContain("Default 12"); // the stub's teaching comments are gone
  expect(existsSync(join(cwd, "ws/01-tool-loop.ts"))).toBe(false); // the exercise's own file is not touched

  // Nobody has saved, and the clock runs all the same: recall starts when the task is shown.
  await tmux.until((s) => !s.includes(ZERO_CLOCK), "the clock past 0:00 before any save");

  writeFileSync(drillFile, solution);
  const green = await tmux.until((s) => s.includes("✔ Green in ") && s.includes("Pasted:"), "the green result, told it was pasted", 30_000);
  const elapsed = (Date.now() - opened) / 1000;
  track();
  expect(green.replace(/\s+/g, " ")).toContain("Pasted: green faster than its code can be typed, so it is recorded as pasted and is not a personal best.");
  expect(green).not.toContain("✘");

  tmux.keys("q");
  const end = await expectCleanExit();
  expect(end).toContain(`Recorded in ${history}.`);
  expect(end).not.toContain("Drill 1 · exercise 1"); // the live part is gone, the report is printed once

  const lines = historyLines();
  expect(lines).toHaveLength(1);
  const [line] = lines;
  expect(line).toEqual({
    exercise: 1,
    seconds: expect.any(Number),
    passed: true,
    abandoned: false,
    peeked: false,
    pasted: true,
    lines: drillLines(solution),
    runs: 1,
    attempt: 1,
    at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    file: "drills/01-tool-loop.1.ts",
  });
  // Timed from the opening, seconds before the first save, to the green run.
  expect(line!["seconds"] as number).toBeGreaterThan(1);
  expect(line!["seconds"] as number).toBeLessThanOrEqual(elapsed + 0.1);

  // lab list shows no best: a pasted time is not one.
  const list = execFileSync(process.execPath, [join(root, "bin/lab.js"), "list"], { cwd, env: { ...process.env, CI: "1" }, encoding: "utf8" });
  expect(list.split("\n")[0]).toContain("Best drill");
  expect(list.split("\n").find((l) => /^ *1 /.test(l))).not.toContain(formatSeconds(line!["seconds"] as number));
}, 90_000);

test("lab drill 1 --interview: a locked reference asks first and marks the peek; after green three questions, typed answers, marks; the score is recorded", async () => {
  await startDrill("--interview");
  writeFileSync(drillFile, `${readFileSync(drillFile, "utf8")}\n`); // the first save makes an attempt of it
  // The watcher may fire twice for one save, so the run after it is run 2 or 3.
  await tmux.until((s) => /Run ([2-9]|\d{2,}): /.test(s) && s.includes("q give up (recorded)"), "the run after the first save, the clock going");
  tmux.keys("1");
  await tmux.until((s) => s.includes("The tier 1 reference (pseudocode) is locked during a drill"), "the confirmation");
  tmux.keys("y");
  await tmux.until((s) => s.includes("Reference tier 1: pseudocode"), "the tier 1 pane");
  tmux.keys("Escape");
  await tmux.until((s) => s.includes("Peeked: tier 1.") && !s.includes("Reference tier 1: pseudocode"), "the pane closed, the peek noted");

  writeFileSync(drillFile, solution);
  await tmux.until((s) => s.includes("✔ Green in ") && s.includes("Question 1 of 3:"), "green, then the first question", 30_000);
  track();
  for (const [answer, mark] of [
    ["one message teaches batching", "y"],
    ["ids must match", "n"],
    ["a cut-off reply is not an answer", "y"],
  ] as const) {
    tmux.keys("-l", answer);
    tmux.keys("Enter");
    await tmux.until((s) => s.includes("Model answer:") && s.includes(`> ${answer}`), `the model answer beside "${answer}"`);
    tmux.keys(mark);
  }
  await tmux.until((s) => s.includes("Interview done: 2 of 3 right. Press q to finish."), "the interview's end");
  tmux.keys("q");
  const end = await expectCleanExit();
  expect(end).toContain("Interview: 2 of 3 right.");
  expect(historyLines()).toEqual([
    expect.objectContaining({ exercise: 1, passed: true, peeked: true, peeks: ["tier 1"], runs: 2, interview: { right: 2, asked: 3 } }),
  ]);
}, 90_000);

test("green, then the terminal window closes (SIGHUP): the green attempt is already in the history", async () => {
  await startDrill();
  writeFileSync(drillFile, solution);
  await tmux.until((s) => s.includes("✔ Green in "), "the green result", 30_000);
  // The line is written the moment the run turns green, before any key.
  expect(historyLines()).toEqual([expect.objectContaining({ exercise: 1, passed: true, abandoned: false, lines: drillLines(solution) })]);
  tmux.kill(); // closing the window: the terminal hangs up on lab
  await until(() => ![...seen].some(alive), "lab and its workers ending on the hang-up", 10_000, 50);
  expect(historyLines()).toEqual([expect.objectContaining({ exercise: 1, passed: true, abandoned: false })]);
}, 90_000);
