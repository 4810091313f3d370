import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import type { Timers } from "./timers.js";

/** How often the file's content is compared with what the watcher last reported. */
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

/** What the file holds, as a hash: a save that changes nothing (touch, the same text again) is no change. Null when it cannot be read. */
export type Fingerprint = (file: string) => string | null;

export const contentHash: Fingerprint = (file) => {
  try {
    return createHash("sha256").update(readFileSync(file)).digest("hex");
  } catch {
    return null;
  }
};

/**
 * Notices a watcher that stays silent: the file's content changed, and a whole check
 * interval later the watcher still has not said so. Then `onSilent` runs once per missed
 * save. A time that moved with the same content (touch) is not a save. Once the watcher
 * reports an event again, `onHeard` says the silence is over.
 */
export class SilenceCheck {
  private known: string | null;
  private suspect = false;
  /** A missed save was reported and no watcher event has come since. */
  private silent = false;
  private handle: unknown = null;

  constructor(
    private readonly file: string,
    private readonly onSilent: () => void,
    private readonly timers: Timers,
    private readonly fingerprint: Fingerprint = contentHash,
    private readonly onHeard: () => void = () => {},
    private readonly intervalMs = SILENCE_CHECK_MS,
  ) {
    this.known = fingerprint(file);
  }

  start(): this {
    this.handle = this.timers.setInterval(() => this.check(), this.intervalMs);
    return this;
  }

  /** The watcher reported an event: what is on disk now is known, and the watcher is heard again. */
  heard(): void {
    this.read();
    if (!this.silent) return;
    this.silent = false;
    this.onHeard();
  }

  /** The session read the file itself (a run starts): what is on disk now is known; the watcher was not heard. */
  read(): void {
    this.known = this.fingerprint(this.file);
    this.suspect = false;
  }

  private check(): void {
    const now = this.fingerprint(this.file);
    if (now === this.known) {
      this.suspect = false;
    } else if (!this.suspect) {
      this.suspect = true; // give the watcher one interval to catch up
    } else {
      this.known = now;
      this.suspect = false;
      this.silent = true;
      this.onSilent();
    }
  }

  close(): void {
    if (this.handle !== null) this.timers.clearInterval(this.handle);
    this.handle = null;
  }
}
