import { readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { emptyExercise, emptyProgress, parseProgress, type ExerciseProgress, type Progress } from "./progress-data.js";
import { writeAtomically } from "./write-atomically.js";

export const PROGRESS_MESSAGES = {
  corrupt: (file: string, aside: string) => `${file} could not be read, so it was moved to ${aside} and your progress starts fresh.`,
  corruptReadOnly: (file: string) => `${file} could not be read and the folder is read-only, so your progress starts fresh and is not saved.`,
  readOnly: (dir: string) => `Your progress cannot be saved because ${dir} is read-only; everything else still works.`,
} as const;

export const labDir = (workspaceDir: string) => join(workspaceDir, ".lab");

const READ_ONLY_CODES = new Set(["EACCES", "EPERM", "EROFS"]);
export const isReadOnly = (err: unknown) => READ_ONLY_CODES.has((err as NodeJS.ErrnoException).code ?? "");

/** Someone's progress as it is on disk, for reading only (grading a learner's folder): nothing is moved or written; null when absent or unreadable. */
export function readProgress(workspaceDir: string): Progress | null {
  try {
    return parseProgress(readFileSync(join(labDir(workspaceDir), "progress.json"), "utf8"));
  } catch {
    return null;
  }
}

/** A filesystem-safe timestamp: 2026-03-01T10-22-05-123Z. */
export const stamp = (at: Date) => at.toISOString().replace(/[:.]/g, "-");

/**
 * Progress in `<workspace>/.lab/progress.json`. Reads never throw: a corrupt file is moved
 * aside and rebuilt. Writes are atomic (temp file + rename); a read-only workspace is
 * reported once through `warn` and the progress lives on in memory.
 */
export class ProgressStore {
  readonly file: string;
  private cache: Progress | null = null;
  private warnedReadOnly = false;

  constructor(
    readonly workspaceDir: string,
    /** Where warnings go: stderr for commands, a notice line while the screen is up. */
    public warn: (sentence: string) => void,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.file = join(labDir(workspaceDir), "progress.json");
  }

  read(): Progress {
    this.cache ??= this.load();
    return this.cache;
  }

  exercise(id: string): ExerciseProgress {
    return this.read().exercises[id] ?? emptyExercise();
  }

  /** Changes one exercise's record and saves the whole file. */
  update(id: string, change: (record: ExerciseProgress, now: string) => void): ExerciseProgress {
    const progress = this.read();
    const record = (progress.exercises[id] ??= emptyExercise());
    change(record, this.now().toISOString());
    this.save(progress);
    return record;
  }

  private load(): Progress {
    let text: string | null;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return emptyProgress();
      text = null; // a folder in its place (EISDIR), or a file that cannot be read: corrupt too
    }
    const progress = text === null ? null : parseProgress(text);
    if (progress) return progress;
    const aside = `${this.file}.corrupt-${stamp(this.now())}`;
    try {
      renameSync(this.file, aside);
      this.warn(PROGRESS_MESSAGES.corrupt(this.file, aside));
    } catch (err) {
      if (!isReadOnly(err)) throw err;
      this.warnedReadOnly = true;
      this.warn(PROGRESS_MESSAGES.corruptReadOnly(this.file));
    }
    return emptyProgress();
  }

  private save(progress: Progress): void {
    try {
      writeAtomically(this.file, `${JSON.stringify(progress, null, 2)}\n`);
    } catch (err) {
      this.failedWrite(err);
    }
  }

  private failedWrite(err: unknown): void {
    if (!isReadOnly(err)) throw err;
    if (this.warnedReadOnly) return;
    this.warnedReadOnly = true;
    this.warn(PROGRESS_MESSAGES.readOnly(this.workspaceDir));
  }
}
