import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { labPaths } from "../../checker/paths.js";
import { loadExercises, type Exercise } from "../../checker/model/exercises.js";
import { alive, descendants } from "../support/processes.js";
import { tempDir } from "../support/temp-dir.js";
import { Tmux } from "./tmux.js";

// The command a learner is told to type, on an ordinary 80×24 terminal, then the exercises after it
// in turn as a learner meets them: the stub shows red, the solution saved over it turns every row
// green, n moves on to the next exercise (its file made from its stub), and after the last one q
// exits. One lab walks half of the exercises, so the lab's start (runner, workers, type checker) is
// paid twice, not once per exercise; what is per exercise (each stub failing and each solution
// passing every hidden test, in a runner as the screen's) is still here for each, and also in
// test/self-check.test.ts. The two halves are two labs in two terminals side by side.
const paths = labPaths();
const exercises = loadExercises(paths.exercises, paths.solutions);
const launcher = join(paths.root, "bin/lab.js");
const half = Math.ceil(exercises.length / 2);
const walks = [exercises.slice(0, half), exercises.slice(half)];

const terminals: Tmux[] = [];
afterAll(() => terminals.forEach((t) => t.kill()));

async function walk(tmux: Tmux, walked: Exercise[], last: boolean): Promise<void> {
  const cwd = tempDir("e2e-start");
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws", timeoutSeconds: 30 };\n`);
  tmux.start(`cd ${cwd} && unset CI && ${process.execPath} ${launcher} start ${walked[0]!.number}; echo LAB-EXIT=$?; sleep 600`, { columns: 80, rows: 24 });
  const ours = new Set<number>();
  const track = () => {
    for (const pid of descendants(Number(tmux.pane("pane_pid")))) ours.add(pid);
  };

  for (const [i, exercise] of walked.entries()) {
    const { number } = exercise;
    const header = `Exercise ${number} · ${exercise.title}`;
    const red = await tmux.until((s) => s.includes(header) && /Run 1: 0 of \d+ passed/.test(s), `the stub's first run of exercise ${number}, failing`, 40_000);
    expect(red).toContain(header);
    track();

    copyFileSync(exercise.solution, join(cwd, "ws", exercise.fileName));
    const green = await tmux.until((s) => /Run 2: all \d+ passed/.test(s), `exercise ${number} turning green on the solution`, 40_000);
    expect(green).toContain(header);
    expect(green).not.toContain("✘");
    track();

    const moveOn = i < walked.length - 1;
    // The last exercise has no next one to offer.
    if (moveOn || !last) expect(green).toContain("n next");
    else expect(green).not.toContain("n next");
    tmux.keys(moveOn ? "n" : "q");
  }

  await tmux.until((s) => s.includes("LAB-EXIT="), "lab exiting");
  expect(tmux.screen()).toContain("LAB-EXIT=0");
  const shell = Number(tmux.pane("pane_pid"));
  for (const pid of ours) if (pid !== shell) expect(alive(pid), `process ${pid} is still running`).toBe(false);
}

describe.concurrent("every exercise in a real terminal", () => {
  for (const [k, walked] of walks.entries()) {
    const [first, end] = [walked[0]!.number, walked.at(-1)!.number];
    test(`lab start ${first} at 80×24, then n through ${end}: red on each stub, green on each solution; q exits 0 and leaves no process`, async () => {
      const tmux = new Tmux();
      terminals.push(tmux);
      await walk(tmux, walked, k === walks.length - 1);
    }, 300_000);
  }
});
