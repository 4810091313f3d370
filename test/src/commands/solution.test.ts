import { readFileSync } from "node:fs";
import { beforeEach, expect, test } from "vitest";
import { solutionCommand } from "../../../src/commands/solution.js";
import { ProgressStore } from "../../../src/progress/progress-store.js";
import { FIXTURE_PATHS, labDir, out } from "./lab-dir.js";

let dir: ReturnType<typeof labDir>;
beforeEach(() => void (dir = labDir()));

const solution = readFileSync(`${FIXTURE_PATHS.solutions}/01-adder.ts`, "utf8");
const progress = () => new ProgressStore(dir.workspace, () => {});

test("before a pass the solution is locked, and says how to open it anyway", async () => {
  await expect(solutionCommand("1", {}, dir.io(), FIXTURE_PATHS)).rejects.toThrow(
    "Exercise 1 has not passed yet: its solution opens after your first all-green run, or now with lab solution 1 --force (which is recorded).",
  );
  expect(progress().exercise("01-adder").solutionSeenAt).toBeUndefined();
});

test("--force shows it before a pass and records that", async () => {
  const io = dir.io();
  expect(await solutionCommand("1", { force: true }, io, FIXTURE_PATHS)).toBe(0);
  expect(out(io)).toContain(solution);
  expect(out(io)).toContain("Shown with --force before a pass; your progress records that.");
  expect(progress().exercise("01-adder")).toMatchObject({ solutionForcedAt: expect.any(String), solutionSeenAt: expect.any(String) });
});

test("after a pass it opens, is recorded as seen, and is not marked forced", async () => {
  progress().update("01-adder", (r, now) => void (r.passedAt = now));
  const io = dir.io();
  expect(await solutionCommand("1", {}, io, FIXTURE_PATHS)).toBe(0);
  expect(out(io)).toBe(`Solution for exercise 1 (${FIXTURE_PATHS.solutions}/01-adder.ts):\n\n${solution}`);
  const record = progress().exercise("01-adder");
  expect(record.solutionSeenAt).toEqual(expect.any(String));
  expect(record.solutionForcedAt).toBeUndefined();
});
