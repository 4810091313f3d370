/**
 * The trusted side's watch over calls it did not wait for (see Membrane.sendLater): while the
 * learner's realm owes their outcome it must keep answering, so each tick asks it to drain, and
 * a realm that leaves the question unanswered for the call limit is stuck, as a call waited on
 * for that long would be. A tick that comes late (this side was busy, the realm perhaps waiting
 * on it) asks again instead of judging.
 */
import { monotonic } from "./bell-watch.js";

/** How often a realm that owes answers is asked for a sign of life. */
const WATCH_TICK_MS = 250;
/** The real timer, taken before a test can replace it with a fake one: the watch runs on real time. */
const realSetTimeout = setTimeout;
const realClearTimeout = clearTimeout;

/** What the watch needs of the side it watches from. */
export interface OwingSide {
  /** Handles whatever already arrived: the answer may be waiting behind a tick. */
  drainPort(): void;
  /** Whether the other side still owes answers (and this side has not stopped). */
  owes(): boolean;
  /** Asks the other side to drain; `drained` runs when it has. */
  askDrain(drained: () => void): void;
  /** The other side left a drain unanswered for the limit. */
  stuck(): void;
}

export class OwedWatch {
  /** The realm's last sign of life asked for. */
  private ping: { sentAt: number; answered: boolean } | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastTick = 0;
  private readonly tickMs: number;

  constructor(
    private readonly side: OwingSide,
    private readonly limitMs: number,
  ) {
    this.tickMs = Math.min(WATCH_TICK_MS, limitMs / 4);
  }

  /** Starts ticking, unless it already does; it stops by itself once nothing is owed. */
  start(): void {
    if (this.timer !== null) return;
    this.lastTick = monotonic();
    this.schedule(0);
  }

  stop(): void {
    if (this.timer !== null) realClearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(ms: number): void {
    this.timer = realSetTimeout(() => this.tick(), ms);
    this.timer.unref?.();
  }

  private tick(): void {
    this.timer = null;
    const now = monotonic();
    const late = now - this.lastTick > 2 * this.tickMs;
    this.lastTick = now;
    this.side.drainPort();
    if (!this.side.owes()) {
      this.ping = null;
      return;
    }
    if (this.ping === null || this.ping.answered || late) {
      const ping = { sentAt: now, answered: false };
      this.ping = ping;
      // Answered at once, not a promise later: the next tick may judge in the same turn it reads the answer.
      this.side.askDrain(() => (ping.answered = true));
    } else if (now - this.ping.sentAt >= this.limitMs) {
      this.side.stuck();
      return;
    }
    this.schedule(this.tickMs);
  }
}
