import { readFileSync } from "node:fs";
import { beforeEach, expect, test } from "vitest";
import { showCommand } from "../../../src/commands/show.js";
import { FIXTURE_PATHS, labDir, out } from "./lab-dir.js";

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
