/** Drill files live beside the workspace, one per attempt: `<workspace>/drills/01-tool-loop.3.ts`. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Exercise } from "../../checker/model/exercises.js";
import { isReadOnly } from "../progress/progress-store.js";
import { WORKSPACE_MESSAGES, WorkspaceWriteError } from "../progress/workspace-files.js";
import { DRILL_MESSAGES } from "./messages.js";
import { drillSource } from "./drill-source.js";

export const drillsDir = (workspaceDir: string) => join(workspaceDir, "drills");

export interface DrillFile {
  attempt: number;
  file: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** This exercise's drill files, oldest attempt first. */
export function drillFiles(workspaceDir: string, exercise: Exercise): DrillFile[] {
  const dir = drillsDir(workspaceDir);
  if (!existsSync(dir)) return [];
  const name = new RegExp(`^${escape(exercise.id)}\\.(\\d+)\\.ts$`);
  return readdirSync(dir)
    .map((entry) => name.exec(entry))
    .filter((match) => match !== null)
    .map((match) => ({ attempt: Number(match[1]), file: join(dir, match[0]) }))
    .sort((a, b) => a.attempt - b.attempt);
}

/**
 * Writes a fresh drill file under the next attempt number: past both the files on disk and
 * the attempts in the history (files may have been deleted). `wx` never overwrites one, so
 * two drills started at once still get a file each.
 */
export function createDrillFile(workspaceDir: string, exercise: Exercise, attemptsSoFar: number): DrillFile {
  const dir = drillsDir(workspaceDir);
  const onDisk = drillFiles(workspaceDir, exercise).at(-1)?.attempt ?? 0;
  const stub = readFileSync(exercise.stub, "utf8");
  for (let attempt = Math.max(onDisk, attemptsSoFar) + 1; ; attempt++) {
    const file = join(dir, `${exercise.id}.${attempt}.ts`);
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, drillSource(stub, DRILL_MESSAGES.fileHeader(exercise.number, attempt)), { flag: "wx" });
      return { attempt, file };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") continue;
      if (isReadOnly(err)) throw new WorkspaceWriteError(WORKSPACE_MESSAGES.readOnly(file, dir));
      throw err;
    }
  }
}
