import type { Timers } from "./timers.js";

/**
 * Quiet time after a save before a run starts: long enough to merge one editor save's
 * events and a burst of saves a few milliseconds apart, short enough not to be felt. A
 * save the watcher drops is caught after the run instead (WatchSession compares the file
 * with what the run started from).
 *
 * Why not less: the watcher's first event often comes while the save is still writing.
 * Written in place by vim, cp, python and node on a busy two-core machine (load 8 to 12),
 * the file was not yet whole at that event in 16 of 32 saves (all 8 of vim's); 1 ms later
 * 3 were still partial, and one python save (its writes 16 ms apart) was whole only 10 ms
 * after the event. A run that reads half a file shows a wrong result and costs a second
 * run, far more than the 10 ms a shorter wait would save.
 */
export const SAVE_DEBOUNCE_MS = 20;

/**
 * Turns saves into runs: quick saves coalesce into one run, a save during a run is
 * remembered and run next (never dropped), and runs never overlap.
 */
export class RunScheduler {
  private debounce: unknown = null;
  private running = false;
  private pending = false;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly run: () => Promise<void>,
    private readonly timers: Timers,
    private readonly debounceMs = SAVE_DEBOUNCE_MS,
  ) {}

  /** A save was seen: run once things have been quiet for `debounceMs`. */
  saved(): void {
    if (this.closed) return;
    if (this.debounce !== null) this.timers.clearTimeout(this.debounce);
    this.debounce = this.timers.setTimeout(() => {
      this.debounce = null;
      this.trigger();
    }, this.debounceMs);
  }

  /** Run now, or right after the run in flight. */
  trigger(): void {
    if (this.closed) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    void this.loop();
  }

  get busy(): boolean {
    return this.running;
  }

  private async loop(): Promise<void> {
    this.running = true;
    do {
      this.pending = false;
      try {
        await this.run();
      } catch {
        // The run reports its own failure; the scheduler only keeps the order.
      }
    } while (this.pending && !this.closed);
    this.running = false;
    for (const done of this.idleWaiters.splice(0)) done();
  }

  /** Resolves when no run is in flight. */
  idle(): Promise<void> {
    return this.running ? new Promise((done) => this.idleWaiters.push(done)) : Promise.resolve();
  }

  /** Stops accepting saves; a run in flight finishes on its own. */
  close(): void {
    this.closed = true;
    this.pending = false;
    if (this.debounce !== null) this.timers.clearTimeout(this.debounce);
    this.debounce = null;
  }
}
