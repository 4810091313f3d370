import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, expect, test } from "vitest";
import { PROGRESS_MESSAGES, ProgressStore } from "../../../src/progress/progress-store.js";
import { tempDir } from "../../support/temp-dir.js";
import { canMakeReadOnly, makeReadOnly } from "./read-only.js";

let workspace: string;
let warnings: string[];
const at = new Date("2026-03-01T10:22:05.123Z");
const store = () =>
  new ProgressStore(
    workspace,
    (s) => warnings.push(s),
    () => at,
  );

beforeEach(() => {
  workspace = tempDir("progress");
  warnings = [];
});

test("a missing file is empty progress, and an update writes it, leaving no temp file behind", () => {
  const progress = store();
  expect(progress.read()).toEqual({ version: 1, exercises: {} });
  progress.update("01-adder", (record, now) => {
    record.hintsShown = 2;
    record.startedAt = now;
  });
  expect(JSON.parse(readFileSync(progress.file, "utf8"))).toEqual({
    version: 1,
    exercises: { "01-adder": { hintsShown: 2, startedAt: "2026-03-01T10:22:05.123Z" } },
  });
  expect(readdirSync(join(workspace, ".lab"))).toEqual(["progress.json"]);
  expect(store().exercise("01-adder").hintsShown).toBe(2);
  expect(warnings).toEqual([]);
});

test.each([
  ["not JSON", "{ this is not json"],
  ["JSON of the wrong shape", JSON.stringify({ version: 1, exercises: { "01-adder": { hintsShown: "two" } } })],
  ["another version", JSON.stringify({ version: 7, exercises: {} })],
])("a corrupt file (%s) is moved aside with one sentence, and progress is rebuilt", (_what, text) => {
  mkdirSync(join(workspace, ".lab"));
  const file = join(workspace, ".lab", "progress.json");
  writeFileSync(file, text);
  const progress = store();
  expect(progress.read()).toEqual({ version: 1, exercises: {} });
  const aside = `${file}.corrupt-2026-03-01T10-22-05-123Z`;
  expect(warnings).toEqual([PROGRESS_MESSAGES.corrupt(file, aside)]);
  expect(warnings[0]).toBe(`${file} could not be read, so it was moved to ${aside} and your progress starts fresh.`);
  expect(readFileSync(aside, "utf8")).toBe(text);
  progress.update("01-adder", (r) => void (r.hintsShown = 1));
  expect(JSON.parse(readFileSync(file, "utf8")).exercises["01-adder"].hintsShown).toBe(1);
});

test("progress.json that is a folder gets the same recovery as a corrupt file: moved aside, one sentence, progress rebuilt", () => {
  const file = join(workspace, ".lab", "progress.json");
  mkdirSync(file, { recursive: true });
  writeFileSync(join(file, "inside.txt"), "kept");
  const progress = store();
  expect(progress.read()).toEqual({ version: 1, exercises: {} });
  const aside = `${file}.corrupt-2026-03-01T10-22-05-123Z`;
  expect(warnings).toEqual([PROGRESS_MESSAGES.corrupt(file, aside)]);
  expect(readFileSync(join(aside, "inside.txt"), "utf8")).toBe("kept");
  progress.update("01-adder", (r) => void (r.hintsShown = 1));
  expect(JSON.parse(readFileSync(file, "utf8")).exercises["01-adder"].hintsShown).toBe(1);
});

const readOnly = canMakeReadOnly();

test.runIf(readOnly)("a read-only workspace gives one sentence, once, and progress lives on in memory", () => {
  const undo = makeReadOnly(workspace)!;
  try {
    const progress = store();
    progress.update("01-adder", (r) => void (r.hintsShown = 1));
    progress.update("01-adder", (r) => void (r.hintsShown = 2));
    expect(warnings).toEqual([`Your progress cannot be saved because ${workspace} is read-only; everything else still works.`]);
    expect(progress.exercise("01-adder").hintsShown).toBe(2);
    expect(existsSync(join(workspace, ".lab"))).toBe(false);
  } finally {
    undo();
  }
});

test.runIf(readOnly)("a corrupt file in a read-only folder is one sentence too", () => {
  const lab = join(workspace, ".lab");
  mkdirSync(lab);
  writeFileSync(join(lab, "progress.json"), "{");
  const undo = makeReadOnly(lab)!;
  try {
    const progress = store();
    expect(progress.read()).toEqual({ version: 1, exercises: {} });
    progress.update("01-adder", (r) => void (r.hintsShown = 1));
    expect(warnings).toEqual([PROGRESS_MESSAGES.corruptReadOnly(join(lab, "progress.json"))]);
  } finally {
    undo();
  }
});
