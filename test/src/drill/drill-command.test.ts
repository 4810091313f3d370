import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, expect, test } from "vitest";
import { main } from "../../../src/cli/main.js";
import { drillCommand } from "../../../src/commands/drill.js";
import { listCommand } from "../../../src/commands/list.js";
import { drillsFile } from "../../../src/progress/drills.js";
import { err, FIXTURE_PATHS, labDir, out } from "../commands/lab-dir.js";

let dir: ReturnType<typeof labDir>;
beforeEach(() => void (dir = labDir()));

const solution = readFileSync(join(FIXTURE_PATHS.solutions, "01-adder.ts"), "utf8");
const line = (over: object) => JSON.stringify({ exercise: 1, seconds: 300, passed: true, lines: 20, runs: 3, at: "2026-03-01T10:00:00.000Z", ...over });

test("--history: a corrupt line is skipped with a warning, and the rest of the history still shows", async () => {
  dir.mkLab();
  writeFileSync(dir.labFile("drills.jsonl"), [line({ attempt: 1 }), '{"exercise":1,"sec', line({ attempt: 2, seconds: 240 }), ""].join("\n"));
  const io = dir.io();
  expect(await main(["node", "lab", "drill", "--history"], io)).toBe(0);
  expect(err(io)).toBe(`Line 2 of ${drillsFile(dir.workspace)} is not a drill record, so it was skipped.\n`);
  expect(out(io).split("\n")).toEqual([
    "Exercise 1 · The tool-calling loop",
    "  #  ended (UTC)       time  lines  runs  result  peeked  interview",
    "  1  2026-03-01 10:00  5:00     20     3  green",
    "  2  2026-03-01 10:00  4:00     20     3  green",
    "Trend (green times, oldest → newest): █▁  5:00 → 4:00",
    "Best 4:00 · target 10:00",
    "",
  ]);
});

test("--history N shows one exercise; none yet says how to start; an unknown exercise is one sentence", async () => {
  dir.mkLab();
  writeFileSync(dir.labFile("drills.jsonl"), `${line({ exercise: 2 })}\n`);
  let io = dir.io();
  expect(await main(["node", "lab", "drill", "--history", "1"], io)).toBe(0);
  expect(out(io)).toBe("No drills of exercise 1 yet: lab drill 1 starts one.\n");
  io = dir.io();
  expect(await main(["node", "lab", "drill", "2", "--history"], io)).toBe(0);
  expect(out(io)).toContain("Exercise 2 · ");
  io = dir.io();
  expect(await main(["node", "lab", "drill", "--history", "99"], io)).toBe(2); // a usage error, like every unknown exercise
  expect(err(io)).toMatch(/^There is no exercise 99; run lab list to see all \d+\.\n$/);
});

test("--history with no history at all", async () => {
  const io = dir.io();
  expect(await main(["node", "lab", "drill", "--history"], io)).toBe(0);
  expect(out(io)).toBe("No drills yet: lab drill 1 starts one.\n");
});

test("lab list shows the best time lab drill recorded", async () => {
  dir.mkLab();
  writeFileSync(
    dir.labFile("drills.jsonl"),
    [line({ seconds: 200, peeked: true }), line({ seconds: 245 }), line({ seconds: 30, passed: false, abandoned: true })].join("\n"),
  );
  const io = dir.io();
  expect(await listCommand(io, FIXTURE_PATHS)).toBe(0);
  expect(out(io).split("\n")[0]).toContain("Best drill");
  expect(out(io).split("\n")[1]).toBe("1  A fixture exercise for the checker's own tests  untouched  4:05        lab start 1");
});

test("without a terminal: a fresh drill file, one untimed run, exit 1; the solution saved in it, exit 0; no history either time", async () => {
  let io = dir.io(false);
  expect(await drillCommand(undefined, { interview: true }, io, FIXTURE_PATHS)).toBe(1);
  const file = join(dir.workspace, "drills", "01-adder.1.ts");
  expect(out(io).split("\n")[0]).toBe(
    `No terminal here and no drill file yet, so this one was written: ${file}. Write it from memory, then run lab drill 1 in a terminal for a timed attempt.`,
  );
  expect(err(io)).toBe("--interview needs a terminal to ask its questions; it was ignored.\n");
  expect(out(io)).toMatch(/\n0 passed, \d+ failed\n$/);

  writeFileSync(file, solution);
  io = dir.io(false);
  expect(await drillCommand("1", {}, io, FIXTURE_PATHS)).toBe(0);
  expect(out(io).split("\n")[0]).toBe(
    `No terminal here, so there is no clock: the hidden tests run once on your latest drill of exercise 1, ${file}, and nothing is added to your history.`,
  );
  expect(out(io)).toMatch(/\n\d+ passed, 0 failed\n$/);
  expect(readdirSync(join(dir.workspace, "drills"))).toEqual(["01-adder.1.ts"]);
  expect(() => readFileSync(drillsFile(dir.workspace))).toThrow();
}, 60_000);
