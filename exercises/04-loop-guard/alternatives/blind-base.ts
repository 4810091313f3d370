// Written blind from the lesson by a helper who never read the hidden tests: a correct solution of its own, and the base its blind mutants are diffs of.

export interface LoopGuardOptions {
  repeat?: number;
  cycle?: number;
  stall?: number;
  maxSteps?: number;
}

function canonical(value: unknown, ancestors: object[] = []): unknown {
  if (typeof value === "bigint") return `[bigint ${value.toString()}]`;
  if (typeof value === "undefined") return "[undefined]";
  if (typeof value === "function") return `[function ${value.name}]`;
  if (typeof value === "symbol") return `[symbol ${String(value.description)}]`;
  if (typeof value === "number" && !Number.isFinite(value)) return `[number ${String(value)}]`;
  if (value === null || typeof value !== "object") return value;
  if (ancestors.includes(value)) return "[circular]";
  const path = [...ancestors, value];
  if (Array.isArray(value)) return value.map((v) => canonical(v, path));
  if (value instanceof Map) {
    return { "[map]": [...value.entries()].map(([k, v]) => [canonical(k, path), canonical(v, path)]) };
  }
  if (value instanceof Set) return { "[set]": [...value].map((v) => canonical(v, path)) };
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    out[key] = canonical((value as Record<string, unknown>)[key], path);
  }
  return out;
}

function fingerprint(value: unknown): string {
  try {
    return JSON.stringify(canonical(value)) ?? "undefined";
  } catch {
    return `[unencodable ${String(value)}]`;
  }
}

export class LoopGuard {
  steps = 0;
  trips = 0;
  halted = false;

  private readonly repeat: number;
  private readonly cycle: number;
  private readonly stall: number;
  private readonly maxSteps: number;
  private readonly calls = new Map<string, number>();
  private readonly states = new Map<string, number>();
  private best = -Infinity;
  private flat = 0;

  constructor(opts: LoopGuardOptions = {}) {
    this.repeat = opts.repeat ?? 3;
    this.cycle = opts.cycle ?? 2;
    this.stall = opts.stall ?? 6;
    this.maxSteps = opts.maxSteps ?? 40;
  }

  private bump(map: Map<string, number>, key: string): number {
    const n = (map.get(key) ?? 0) + 1;
    map.set(key, n);
    return n;
  }

  private nudge(text: string): string {
    this.trips += 1;
    return text;
  }

  check(tool: string, args: unknown, state: unknown, progress?: number): string | null {
    this.steps += 1;
    if (this.halted || this.steps > this.maxSteps) {
      this.halted = true;
      return `Stopped: the step cap of ${this.maxSteps} tool calls was reached.`;
    }

    const callCount = this.bump(this.calls, fingerprint([tool, args]));
    const stateCount = this.bump(this.states, fingerprint(state));

    let stalled = false;
    if (typeof progress === "number") {
      if (progress > this.best) {
        this.best = progress;
        this.flat = 0;
      } else {
        this.flat += 1;
      }
      stalled = this.flat > this.stall;
    }

    if (callCount > this.repeat) {
      return this.nudge(
        `You have made the identical call to ${tool} with these arguments ${callCount} times; the result will not change. Try something different.`,
      );
    }
    if (stateCount > this.cycle) {
      return this.nudge(
        `You are cycling: the world has come back to a state you have already seen ${stateCount} times. Change your approach.`,
      );
    }
    if (stalled) {
      return this.nudge(
        `There has been no measurable progress for ${this.flat} steps. Step back and try a different approach.`,
      );
    }
    return null;
  }
}
