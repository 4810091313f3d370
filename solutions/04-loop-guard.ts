/**
 * Exercise 4: the loop guard. Three detectors, one per shape of loop (the same call,
 * the same state, no progress), plus the step cap. A detector that fires returns a
 * nudge for the model; only the cap ends the run by itself, and nothing here throws.
 */
import { createHash } from "node:crypto";

export interface LoopGuardOptions {
  repeat?: number;
  cycle?: number;
  stall?: number;
  maxSteps?: number;
}

export class LoopGuard {
  steps = 0;
  trips = 0;
  halted = false;
  private readonly limits: Required<LoopGuardOptions>;
  private readonly calls = new Map<string, number>();
  private readonly states = new Map<string, number>();
  private best: number | undefined;
  private sinceBest = 0;

  constructor(opts: LoopGuardOptions = {}) {
    this.limits = { repeat: 3, cycle: 2, stall: 6, maxSteps: 40, ...opts };
  }

  check(tool: string, args: unknown, state: unknown, progress?: number): string | null {
    this.steps += 1;
    if (this.steps > this.limits.maxSteps) {
      this.halted = true;
      return `Step cap of ${this.limits.maxSteps} reached: the run ends here. Say what you found and what is left undone.`;
    }

    const calls = bump(this.calls, fingerprint([tool, args]));
    if (calls > this.limits.repeat) {
      return this.trip(`${tool} has had identical arguments ${calls} times and will not answer any differently. Take another route, or say what stands in the way.`);
    }

    if (bump(this.states, fingerprint(state)) > this.limits.cycle) {
      return this.trip("Several steps on, the system is back in a state it was already in: you are cycling. Stop, and list what you have tried so far.");
    }

    if (typeof progress === "number") {
      if (this.best === undefined || progress > this.best) {
        this.best = progress;
        this.sinceBest = 0;
      } else if (++this.sinceBest > this.limits.stall) {
        return this.trip(`No measurable progress in ${this.sinceBest} steps (the best value is still ${this.best}). Switch strategy, or say what is holding you up.`);
      }
    }
    return null;
  }

  private trip(nudge: string): string {
    this.trips += 1;
    return nudge;
  }
}

function bump(counts: Map<string, number>, key: string): number {
  const n = (counts.get(key) ?? 0) + 1;
  counts.set(key, n);
  return n;
}

/** A short string that is equal for equal contents, whatever the key order. */
function fingerprint(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(canonical(value, new Set())) ?? "undefined";
  } catch {
    text = String(value); // a getter that throws, say: a weaker fingerprint beats a crash
  }
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** A copy with sorted keys, made of values JSON can encode. `open` holds the objects being copied, to spot cycles. */
function canonical(value: unknown, open: Set<object>): unknown {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "function" || typeof value === "symbol") return String(value);
  if (value === null || typeof value !== "object") return value;
  if (open.has(value)) return "[circular]";
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === "function") return canonical(withJson.toJSON(), open);
  open.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => canonical(item, open));
    const record = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(record).sort().map((key) => [key, canonical(record[key], open)]));
  } finally {
    open.delete(value);
  }
}
