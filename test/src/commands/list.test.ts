import { mkdirSync, writeFileSync } from "node:fs";
import { beforeEach, expect, test } from "vitest";
import { listCommand } from "../../../src/commands/list.js";
import { ProgressStore } from "../../../src/progress/progress-store.js";
import { FIXTURE_PATHS, labDir, out } from "./lab-dir.js";

let dir: ReturnType<typeof labDir>;
beforeEach(() => void (dir = labDir()));

const list = async () => {
  const io = dir.io();
  expect(await listCommand(io, FIXTURE_PATHS)).toBe(0);
  return out(io);
};

test("plain: one aligned row per exercise with its status and next step, then what to do next", async () => {
  expect(await list()).toBe(
    [
      "#  Exercise                                        Status     Next",
      "1  A fixture exercise for the checker's own tests  untouched  lab start 1",
      "",
      "Next: lab start 1 (A fixture exercise for the checker's own tests)",
      "",
    ].join("\n"),
  );
});

test("the status follows the file and the progress; a drill history adds the best time", async () => {
  mkdirSync(dir.workspace);
  writeFileSync(dir.file(), "started");
  expect(await list()).toContain("1  A fixture exercise for the checker's own tests  started  lab start 1 (stuck? lab hint 1)");
  new ProgressStore(dir.workspace, () => {}).update("01-adder", (r, now) => void (r.passedAt = now));
  dir.mkLab();
  writeFileSync(dir.labFile("drills.jsonl"), `${JSON.stringify({ exercise: 1, seconds: 425, passed: true })}\nbroken\n`);
  const text = await list();
  expect(text).toContain("#  Exercise                                        Status   Best drill  Next");
  expect(text).toContain("1  A fixture exercise for the checker's own tests  passing  7:05        lab solution 1 to compare");
  expect(text).toContain("Every exercise has passed.");
});

test("no cursor codes when there is no terminal", async () => {
  expect(await list()).not.toMatch(/\u001B/);
});
