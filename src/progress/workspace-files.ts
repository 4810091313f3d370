import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Exercise } from "../../checker/model/exercises.js";
import { isReadOnly, labDir, stamp } from "./progress-store.js";

export const WORKSPACE_MESSAGES = {
  readOnly: (file: string, dir: string) =>
    `lab cannot write ${file} because ${dir} is read-only; set "workspace" in lab.config.ts to a folder you can write to.`,
} as const;

export class WorkspaceWriteError extends Error {
  override name = "WorkspaceWriteError";
}

function writeOrExplain(file: string, dir: string, write: () => void): void {
  try {
    mkdirSync(dir, { recursive: true });
    write();
  } catch (err) {
    if (isReadOnly(err)) throw new WorkspaceWriteError(WORKSPACE_MESSAGES.readOnly(file, dir));
    throw err;
  }
}

/** Creates the learner's file from the stub when it is missing; never overwrites. True when it was created. */
export function ensureFromStub(exercise: Exercise, file: string, workspaceDir: string): boolean {
  if (existsSync(file)) return false;
  writeOrExplain(file, workspaceDir, () => writeFileSync(file, readFileSync(exercise.stub), { flag: "wx" }));
  return true;
}

export const backupsDir = (workspaceDir: string) => join(labDir(workspaceDir), "backups");

/** Copies the learner's file to `.lab/backups/<name>.<time>.ts` and puts the stub in its place; returns the backup. */
export function resetToStub(exercise: Exercise, file: string, workspaceDir: string, now: Date): string | null {
  let backup: string | null = null;
  if (existsSync(file)) {
    const dir = backupsDir(workspaceDir);
    backup = join(dir, `${exercise.id}.${stamp(now)}.ts`);
    writeOrExplain(backup, dir, () => copyFileSync(file, backup!));
  }
  writeOrExplain(file, workspaceDir, () => writeFileSync(file, readFileSync(exercise.stub)));
  return backup;
}
