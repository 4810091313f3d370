import { statSync } from "node:fs";
import type { Timers } from "./timers.js";

/** How often the file's size and time are compared with what the watcher reported. */
export const SILENCE_CHECK_MS = 2_000;

export interface FileStamp {
  mtimeMs: number;
  size: number;
}

export type StatFile = (file: string) => FileStamp | null;

export const statFile: StatFile = (file) => {
  try {
    const { mtimeMs, size } = statSync(file);
    return { mtimeMs, size };
  } catch {
    return null;
  }
};

const same = (a: FileStamp | null, b: FileStamp | null) => a?.mtimeMs === b?.mtimeMs && a?.size === b?.size;

/**
 * Notices a watcher that stays silent: the file changed on disk, and a whole check
 * interval later the watcher still has not said so. Then `onSilent` runs once per missed save.
 */
export class SilenceCheck {
  private known: FileStamp | null;
  private suspect = false;
  private handle: unknown = null;

  constructor(
    private readonly file: string,
    private readonly onSilent: () => void,
    private readonly timers: Timers,
    private readonly stat: StatFile = statFile,
    private readonly intervalMs = SILENCE_CHECK_MS,
  ) {
    this.known = stat(file);
  }

  start(): this {
    this.handle = this.timers.setInterval(() => this.check(), this.intervalMs);
    return this;
  }

  /** The watcher reported a change: what is on disk now is known. */
  noticed(): void {
    this.known = this.stat(this.file);
    this.suspect = false;
  }

  private check(): void {
    const now = this.stat(this.file);
    if (same(now, this.known)) {
      this.suspect = false;
    } else if (!this.suspect) {
      this.suspect = true; // give the watcher one interval to catch up
    } else {
      this.known = now;
      this.suspect = false;
      this.onSilent();
    }
  }

  close(): void {
    if (this.handle !== null) this.timers.clearInterval(this.handle);
    this.handle = null;
  }
}
