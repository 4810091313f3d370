import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { labPaths } from "../../checker/paths.js";
import { loadExercises } from "../../checker/model/exercises.js";
import { alive, descendants } from "../support/processes.js";
import { tempDir } from "../support/temp-dir.js";
import { Tmux } from "./tmux.js";

// The command a learner is told to type, for every real exercise, on an ordinary 80×24
// terminal: the stub shows red, the solution saved over it turns every row green, q exits.
const paths = labPaths();
const exercises = loadExercises(paths.exercises, paths.solutions);
const launcher = join(paths.root, "bin/lab.js");

let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

test.each(exercises.map((e) => [e.number, e] as const))(
  "lab start %i at 80×24: red on the stub, green on the solution, q exits 0 and leaves no process",
  async (number, exercise) => {
    const cwd = tempDir("e2e-start");
    writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws", timeoutSeconds: 30 };\n`);
    const file = join(cwd, "ws", exercise.fileName);
    tmux = new Tmux();
    tmux.start(`cd ${cwd} && unset CI && ${process.execPath} ${launcher} start ${number}; echo LAB-EXIT=$?; sleep 600`, { columns: 80, rows: 24 });

    const red = await tmux.until((s) => /Run 1: 0 of \d+ passed/.test(s), `the stub's first run of exercise ${number}, failing`, 40_000);
    expect(red).toContain(`Exercise ${number} · ${exercise.title}`);
    const ours = new Set(descendants(Number(tmux.pane("pane_pid"))));

    copyFileSync(exercise.solution, file);
    const green = await tmux.until((s) => /Run 2: all \d+ passed/.test(s), `exercise ${number} turning green on the solution`, 40_000);
    expect(green).not.toContain("✘");
    for (const pid of descendants(Number(tmux.pane("pane_pid")))) ours.add(pid);

    tmux.keys("q");
    await tmux.until((s) => s.includes("LAB-EXIT="), "lab exiting");
    expect(tmux.screen()).toContain("LAB-EXIT=0");
    for (const pid of ours) if (pid !== Number(tmux.pane("pane_pid"))) expect(alive(pid), `process ${pid} is still running`).toBe(false);
  },
  120_000,
);
