import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, test } from "vitest";
import { labPaths } from "../../../checker/paths.js";
import { SHOW_MESSAGES, showCommand } from "../../../src/commands/show.js";
import { ProgressStore } from "../../../src/progress/progress-store.js";
import { err, FIXTURE_PATHS, labDir, out } from "./lab-dir.js";

let dir: ReturnType<typeof labDir>;
beforeEach(() => void (dir = labDir()));

test("without options: where the file is and what there is to see", async () => {
  const io = dir.io();
  expect(await showCommand("1", {}, io, FIXTURE_PATHS)).toBe(0);
  expect(out(io)).toBe(
    [
      "Exercise 1: A fixture exercise for the checker's own tests",
      `Your file: ${dir.file()} (not created yet: lab start 1)`,
      "",
      "Lesson:     lab show 1 --lesson",
      "Tier 1:     lab show 1 --tier 1 (pseudocode)",
      "Hints:      0 of 2 seen (lab hint 1)",
      "",
    ].join("\n"),
  );
});

test("--tier prints that reference and --lesson the lesson", async () => {
  const io = dir.io();
  await showCommand("1", { tier: 1 }, io, FIXTURE_PATHS);
  expect(out(io)).toBe(readFileSync(`${FIXTURE_PATHS.exercises}/01-adder/reference/tier1.md`, "utf8"));
  const lesson = dir.io();
  await showCommand("1", { lesson: true }, lesson, FIXTURE_PATHS);
  expect(out(lesson)).toBe(readFileSync(`${FIXTURE_PATHS.exercises}/01-adder/lesson.md`, "utf8"));
});

test("a tier the exercise does not have names the ones it has", async () => {
  await expect(showCommand("1", { tier: 2 }, dir.io(), FIXTURE_PATHS)).rejects.toThrow("Exercise 1 has no tier 2 reference; it has tier 1.");
});

describe("tier 3, a whole solution, is a peek before a pass", () => {
  const real = labPaths();
  const tier3 = readFileSync(join(real.exercises, "01-tool-loop/reference/tier3.ts"), "utf8");

  test("without --force it is refused in a sentence and nothing is recorded", async () => {
    const io = dir.io();
    await expect(showCommand("1", { tier: 3 }, io, real)).rejects.toThrow(
      "Tier 3 of exercise 1 is a whole solution: it opens after your first all-green run, or now with lab show 1 --tier 3 --force (which is recorded, as lab solution --force is).",
    );
    expect(new ProgressStore(dir.workspace, () => {}).exercise("01-tool-loop").tier3ForcedAt).toBeUndefined();
  });

  test("with --force it is shown and recorded once; after a pass it opens freely and records nothing", async () => {
    const io = dir.io();
    expect(await showCommand("1", { tier: 3, force: true }, io, real)).toBe(0);
    expect(out(io)).toBe(tier3);
    expect(err(io)).toBe(`${SHOW_MESSAGES.peeked(3)}\n`);
    const first = new ProgressStore(dir.workspace, () => {}).exercise("01-tool-loop").tier3ForcedAt;
    expect(first).toEqual(expect.any(String));
    await showCommand("1", { tier: 3, force: true }, dir.io(), real);
    expect(new ProgressStore(dir.workspace, () => {}).exercise("01-tool-loop").tier3ForcedAt).toBe(first);

    const passed = labDir();
    new ProgressStore(passed.workspace, () => {}).update("01-tool-loop", (record, now) => void (record.passedAt = now));
    const after = passed.io();
    expect(await showCommand("1", { tier: 3 }, after, real)).toBe(0);
    expect(out(after)).toBe(tier3);
    expect(new ProgressStore(passed.workspace, () => {}).exercise("01-tool-loop").tier3ForcedAt).toBeUndefined();
  });
});
