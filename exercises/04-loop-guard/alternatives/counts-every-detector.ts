/**
 * Exercise 4, written from the lesson for the points it leaves open, each taken the other way
 * from the solution: every detector counts every step, also the detectors after one that
 * fired; a progress of NaN is ignored like a missing one; a Map or a Set is told apart by its
 * contents. Fingerprints are canonical strings built by hand, no hashing.
 */

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
  private readonly repeat: number;
  private readonly cycle: number;
  private readonly stall: number;
  private readonly maxSteps: number;
  private readonly seenCalls = new Map<string, number>();
  private readonly seenStates = new Map<string, number>();
  private best = -Infinity;
  private flat = 0;

  constructor(opts: LoopGuardOptions = {}) {
    this.repeat = opts.repeat ?? 3;
    this.cycle = opts.cycle ?? 2;
    this.stall = opts.stall ?? 6;
    this.maxSteps = opts.maxSteps ?? 40;
  }

  check(tool: string, args: unknown, state: unknown, progress?: number): string | null {
    this.steps++;
    if (this.steps > this.maxSteps) {
      this.halted = true;
      return `Step cap reached (${this.maxSteps} steps): report what you have.`;
    }
    // Every detector sees every step; only the first that fires speaks.
    const sameCall = count(this.seenCalls, key([tool, args])) > this.repeat;
    const sameState = count(this.seenStates, key(state)) > this.cycle;
    let stuck = false;
    if (typeof progress === "number" && !Number.isNaN(progress)) {
      if (progress > this.best) {
        this.best = progress;
        this.flat = 0;
      } else {
        this.flat++;
        stuck = this.flat > this.stall;
      }
    }
    const nudge = sameCall
      ? `${tool} was called with identical arguments again. Try something else or say what blocks you.`
      : sameState
        ? "The state has not changed: you are cycling. Summarise what you tried."
        : stuck
          ? `No measurable progress in ${this.flat} steps. Change strategy or report the blocker.`
          : null;
    if (nudge !== null) this.trips++;
    return nudge;
  }
}

function count(seen: Map<string, number>, k: string): number {
  const n = (seen.get(k) ?? 0) + 1;
  seen.set(k, n);
  return n;
}

/** A canonical text for a value: sorted keys, Map and Set by contents, cycles and odd values named. */
function key(value: unknown, open: object[] = []): string {
  switch (typeof value) {
    case "bigint":
      return `big:${value}`;
    case "string":
      return JSON.stringify(value);
    case "undefined":
      return "undef";
    case "function":
    case "symbol":
      return `${typeof value}:${String(value)}`;
    case "number":
    case "boolean":
      return String(value);
  }
  if (value === null) return "null";
  const obj = value as object;
  if (open.includes(obj)) return "cycle";
  const inner = [...open, obj];
  try {
    if (Array.isArray(obj)) return `[${obj.map((v) => key(v, inner)).join(",")}]`;
    if (obj instanceof Map) return `map{${[...obj].map(([k, v]) => `${key(k, inner)}=>${key(v, inner)}`).sort().join(",")}}`;
    if (obj instanceof Set) return `set{${[...obj].map((v) => key(v, inner)).sort().join(",")}}`;
    const json = (obj as { toJSON?: () => unknown }).toJSON;
    if (typeof json === "function") return key(json.call(obj), inner);
    const record = obj as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${key(record[k], inner)}`)
      .join(",")}}`;
  } catch {
    return "unreadable";
  }
}
