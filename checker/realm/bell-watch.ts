/**
 * How a side of the membrane waits for an answer: each side has a doorbell (a slot of a shared
 * Int32Array) the other rings after every message. Waking a thread that slept on it costs
 * about as much as the answer (~20 µs here, per side), and most answers come back within tens
 * of microseconds, so a waiting side watches its bell briefly before it sleeps.
 */

/** This realm's own clock, taken before anything replaces the global one (the learner's realm does: entry.ts). */
export const monotonic = performance.now.bind(performance);

/** How long a waiting side watches its bell before it sleeps on it: at most this much CPU a wait. */
const SPIN_MS = 0.05;

/** Whether the bell rings within SPIN_MS of `from`, watched without sleeping. */
function ringsSoon(bells: Int32Array, side: number, seen: number, from: number): boolean {
  for (let i = 1; ; i++) {
    if (Atomics.load(bells, side) !== seen) return true;
    if ((i & 63) === 0 && monotonic() - from > SPIN_MS) return false;
  }
}

/**
 * Watches only while watching pays: on a machine busy with other work the answer comes late,
 * and watching would take a core from whoever is to answer. After three watches in a row that
 * ended in sleep, it sleeps at once, and tries watching again every 32nd wait.
 */
export class BellWatch {
  private misses = 0;
  private skipped = 0;

  /**
   * Waits until bell `side` no longer reads `seen`, or `limitMs` passed (Infinity: no limit),
   * watching first when watching pays. Returns how long it waited.
   */
  wait(bells: Int32Array, side: number, seen: number, limitMs: number): number {
    const from = monotonic();
    if (!this.ringsSoon(bells, side, seen, from)) Atomics.wait(bells, side, seen, Number.isFinite(limitMs) ? limitMs : undefined);
    return monotonic() - from;
  }

  private ringsSoon(bells: Int32Array, side: number, seen: number, from: number): boolean {
    if (this.misses >= 3 && ++this.skipped % 32 !== 0) return false;
    const rang = ringsSoon(bells, side, seen, from);
    this.misses = rang ? 0 : this.misses + 1;
    return rang;
  }
}

/** Rings bell `side`: the other side's next wait on it ends, or the one it is in now. */
export function ring(bells: Int32Array, side: number): void {
  Atomics.add(bells, side, 1);
  Atomics.notify(bells, side);
}
