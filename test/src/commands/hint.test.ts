import { beforeEach, expect, test } from "vitest";
import { hintCommand } from "../../../src/commands/hint.js";
import { ProgressStore } from "../../../src/progress/progress-store.js";
import { canMakeReadOnly, makeReadOnly } from "../progress/read-only.js";
import { err, FIXTURE_PATHS, labDir, out } from "./lab-dir.js";

let dir: ReturnType<typeof labDir>;
beforeEach(() => void (dir = labDir()));

const hint = async () => {
  const io = dir.io();
  expect(await hintCommand("1", io, FIXTURE_PATHS)).toBe(0);
  return out(io);
};

test("each call shows the next hint and remembers it; after the last, all of them again", async () => {
  expect(await hint()).toBe("Hint 1 of 2: Add the two numbers.\nRun lab hint 1 again for the next one.\n");
  expect(await hint()).toBe("Hint 2 of 2: Then ask the scripted model to echo the sum.\n");
  expect(await hint()).toBe(
    "Hint 1 of 2: Add the two numbers.\nHint 2 of 2: Then ask the scripted model to echo the sum.\n" +
      "You have seen all 2 hints; the references go further: lab show 1 --tier 1.\n",
  );
  expect(new ProgressStore(dir.workspace, () => {}).exercise("01-adder").hintsShown).toBe(2);
});

test("an unknown exercise is the context's sentence", async () => {
  await expect(hintCommand("9", dir.io(), FIXTURE_PATHS)).rejects.toThrow("There is no exercise 9; run lab list to see all 1.");
});

test("a corrupt progress file is one sentence on stderr, and the hint still comes", async () => {
  dir.mkLab();
  const { writeFileSync } = await import("node:fs");
  writeFileSync(dir.labFile("progress.json"), "][");
  const io = dir.io();
  expect(await hintCommand("1", io, FIXTURE_PATHS)).toBe(0);
  expect(out(io)).toContain("Hint 1 of 2");
  expect(err(io).trim().split("\n")).toHaveLength(1);
  expect(err(io)).toMatch(/progress\.json could not be read, so it was moved to .*progress\.json\.corrupt-.* and your progress starts fresh\.\n$/);
});

test("progress.json that is a folder: the same sentence as a corrupt file, and the hint still comes (no EISDIR)", async () => {
  const { mkdirSync } = await import("node:fs");
  mkdirSync(dir.labFile("progress.json"), { recursive: true });
  const io = dir.io();
  expect(await hintCommand("1", io, FIXTURE_PATHS)).toBe(0);
  expect(out(io)).toContain("Hint 1 of 2");
  expect(err(io)).toMatch(/progress\.json could not be read, so it was moved to .*progress\.json\.corrupt-.* and your progress starts fresh\.\n$/);
});

test.runIf(canMakeReadOnly())("in a read-only workspace the hint still comes, with one sentence on stderr", async () => {
  const { mkdirSync } = await import("node:fs");
  mkdirSync(dir.workspace);
  const undo = makeReadOnly(dir.workspace)!;
  try {
    const io = dir.io();
    expect(await hintCommand("1", io, FIXTURE_PATHS)).toBe(0);
    expect(out(io)).toContain("Hint 1 of 2: Add the two numbers.");
    expect(err(io)).toBe(`Your progress cannot be saved because ${dir.workspace} is read-only; everything else still works.\n`);
  } finally {
    undo();
  }
});
