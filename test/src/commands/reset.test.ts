import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, expect, test } from "vitest";
import { RESET_MESSAGES, resetCommand } from "../../../src/commands/reset.js";
import { ProgressStore } from "../../../src/progress/progress-store.js";
import { until } from "../../support/until.js";
import { FIXTURE_PATHS, labDir, out } from "./lab-dir.js";

let dir: ReturnType<typeof labDir>;
const stub = readFileSync(join(FIXTURE_PATHS.exercises, "01-adder/stub.ts"), "utf8");
const now = () => new Date("2026-03-01T10:22:05.123Z");

beforeEach(() => {
  dir = labDir();
  mkdirSync(dir.workspace);
  writeFileSync(dir.file(), "my work");
});

test("--yes backs the file up with a timestamp, puts the stub back and records the reset", async () => {
  const io = dir.io();
  expect(await resetCommand("1", { yes: true }, io, FIXTURE_PATHS, now)).toBe(0);
  const backup = join(dir.workspace, ".lab/backups/01-adder.2026-03-01T10-22-05-123Z.ts");
  expect(out(io)).toBe(`${dir.file()} is the stub again; your version is in ${backup}.\n`);
  expect(readFileSync(backup, "utf8")).toBe("my work");
  expect(readFileSync(dir.file(), "utf8")).toBe(stub);
  expect(new ProgressStore(dir.workspace, () => {}).exercise("01-adder").resetAt).toBe("2026-03-01T10:22:05.123Z");
});

test("without a terminal and without --yes it refuses in one sentence and changes nothing", async () => {
  await expect(resetCommand("1", {}, dir.io(false), FIXTURE_PATHS, now)).rejects.toThrow(
    "lab reset needs --yes when there is no terminal to ask for confirmation.",
  );
  expect(readFileSync(dir.file(), "utf8")).toBe("my work");
});

test("in a terminal it asks; anything but yes keeps the file", async () => {
  const io = dir.io(true);
  const done = resetCommand("1", {}, io, FIXTURE_PATHS, now);
  await until(() => out(io).includes(RESET_MESSAGES.question(dir.file())), "the question");
  io.stdin.write("n\n");
  expect(await done).toBe(0);
  expect(out(io)).toContain("Nothing changed.");
  expect(readFileSync(dir.file(), "utf8")).toBe("my work");
  expect(existsSync(join(dir.workspace, ".lab/backups"))).toBe(false);
});

test("in a terminal, y resets", async () => {
  const io = dir.io(true);
  const done = resetCommand("1", {}, io, FIXTURE_PATHS, now);
  await until(() => out(io).includes("[y/N]"), "the question");
  io.stdin.write("y\n");
  expect(await done).toBe(0);
  expect(readFileSync(dir.file(), "utf8")).toBe(stub);
  expect(readdirSync(join(dir.workspace, ".lab/backups"))).toHaveLength(1);
});

test("a file that does not exist yet is nothing to reset", async () => {
  const io = dir.io();
  const { rmSync } = await import("node:fs");
  rmSync(dir.file());
  expect(await resetCommand("1", { yes: true }, io, FIXTURE_PATHS, now)).toBe(0);
  expect(out(io)).toBe(`There is nothing to reset: ${dir.file()} does not exist yet (lab start 1 creates it).\n`);
});
