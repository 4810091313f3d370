import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeEach, expect, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import { backupsDir, ensureFromStub, resetToStub, WORKSPACE_MESSAGES, WorkspaceWriteError } from "../../../src/progress/workspace-files.js";
import { tempDir } from "../../support/temp-dir.js";
import { canMakeReadOnly, makeReadOnly } from "./read-only.js";

const fixtures = resolve(import.meta.dirname, "../../fixtures/lab");
const exercise = loadExercises(join(fixtures, "exercises"), join(fixtures, "solutions"))[0]!;
const stub = readFileSync(exercise.stub, "utf8");
let root: string;
let workspace: string;
let file: string;

beforeEach(() => {
  root = tempDir("ws");
  workspace = join(root, "ws");
  file = join(workspace, exercise.fileName);
});

test("the learner's file is created from the stub, in a workspace made on demand, and never overwritten", () => {
  expect(ensureFromStub(exercise, file, workspace)).toBe(true);
  expect(readFileSync(file, "utf8")).toBe(stub);
  writeFileSync(file, "my work");
  expect(ensureFromStub(exercise, file, workspace)).toBe(false);
  expect(readFileSync(file, "utf8")).toBe("my work");
});

test("reset keeps a timestamped backup and puts the stub back", () => {
  ensureFromStub(exercise, file, workspace);
  writeFileSync(file, "my work");
  const backup = resetToStub(exercise, file, workspace, new Date("2026-03-01T10:22:05.123Z"));
  expect(backup).toBe(join(backupsDir(workspace), `${exercise.id}.2026-03-01T10-22-05-123Z.ts`));
  expect(readFileSync(backup!, "utf8")).toBe("my work");
  expect(readFileSync(file, "utf8")).toBe(stub);
  resetToStub(exercise, file, workspace, new Date("2026-03-01T10:22:06.000Z"));
  expect(readdirSync(backupsDir(workspace))).toHaveLength(2);
});

const readOnlyWorks = canMakeReadOnly();

test.runIf(readOnlyWorks)("a read-only workspace is one sentence that says what to do", () => {
  const undo = makeReadOnly(root)!;
  try {
    expect(() => ensureFromStub(exercise, file, workspace)).toThrow(WorkspaceWriteError);
    expect(() => ensureFromStub(exercise, file, workspace)).toThrow(WORKSPACE_MESSAGES.readOnly(file, workspace));
    expect(WORKSPACE_MESSAGES.readOnly(file, workspace)).toBe(
      `lab cannot write ${file} because ${workspace} is read-only; set "workspace" in lab.config.ts to a folder you can write to.`,
    );
  } finally {
    undo();
  }
});
