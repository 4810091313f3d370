// written blind from the lesson
/**
 * Loop guard, variant: no JSON at all. A hand-written serializer emits type-tagged
 * tokens (keys sorted at every depth, arrays in order, cycles marked by depth), the
 * result is hashed with sha256, and counts are kept in prototype-less records.
 * The stall detector keeps the whole list of progress values and measures the
 * distance back to the step that set the current best.
 */
import { createHash } from "node:crypto";

export interface LoopGuardOptions {
  repeat?: number;
  cycle?: number;
  stall?: number;
  maxSteps?: number;
}

function serialize(value: unknown, stack: unknown[]): string {
  switch (typeof value) {
    case "string":
      return `s${value.length}:${value}`;
    case "number":
      return `n:${Object.is(value, -0) ? "0" : String(value)}`;
    case "bigint":
      return `b:${value.toString()}`;
    case "boolean":
      return value ? "T" : "F";
    case "undefined":
      return "U";
    case "symbol":
      return `y:${String(value.description)}`;
    case "function":
      return `f:${value.name}`;
  }
  if (value === null) return "N";
  const seenAt = stack.indexOf(value);
  if (seenAt >= 0) return `c:${stack.length - seenAt}`;
  stack.push(value);
  let out: string;
  if (Array.isArray(value)) {
    out = `[${value.map((v) => serialize(v, stack)).join(",")}]`;
  } else if (value instanceof Map) {
    out = `M[${[...value].map(([k, v]) => serialize(k, stack) + "=>" + serialize(v, stack)).join(",")}]`;
  } else if (value instanceof Set) {
    out = `S[${[...value].map((v) => serialize(v, stack)).join(",")}]`;
  } else {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    out = `{${keys.map((k) => `${serialize(k, stack)}:${serialize(obj[k], stack)}`).join(",")}}`;
  }
  stack.pop();
  return out;
}

function digest(value: unknown): string {
  let text: string;
  try {
    text = serialize(value, []);
  } catch (err) {
    text = `!${String(err)}`;
  }
  return createHash("sha256").update(text).digest("hex");
}

export class LoopGuard {
  steps = 0;
  trips = 0;
  halted = false;

  private readonly limits: Required<LoopGuardOptions>;
  private readonly callCounts: Record<string, number> = Object.create(null);
  private readonly stateCounts: Record<string, number> = Object.create(null);
  private readonly history: number[] = [];
  private bestAt = -1;

  constructor(opts: LoopGuardOptions = {}) {
    const defaults: Required<LoopGuardOptions> = { repeat: 3, cycle: 2, stall: 6, maxSteps: 40 };
    const merged = { ...defaults };
    for (const key of Object.keys(defaults) as (keyof LoopGuardOptions)[]) {
      const given = opts[key];
      if (given !== undefined) merged[key] = given;
    }
    this.limits = merged;
  }

  check(tool: string, args: unknown, state: unknown, progress?: number): string | null {
    this.steps++;
    if (this.steps > this.limits.maxSteps) {
      this.halted = true;
      return `Halting: the step cap (${this.limits.maxSteps}) has been passed.`;
    }

    const callKey = digest(["call", tool, args]);
    const seenCalls = (this.callCounts[callKey] = (this.callCounts[callKey] ?? 0) + 1);
    if (seenCalls > this.limits.repeat) {
      this.trips++;
      this.recordProgress(progress);
      this.countState(state);
      return `${tool} has now been called ${seenCalls} times with identical arguments. Do not call it again with the same input.`;
    }

    const seenStates = this.countState(state);
    if (seenStates > this.limits.cycle) {
      this.trips++;
      this.recordProgress(progress);
      return `The same state has come back ${seenStates} times: you are cycling between actions that change nothing.`;
    }

    const flat = this.recordProgress(progress);
    if (typeof progress === "number" && flat > this.limits.stall) {
      this.trips++;
      return "No measurable progress: the metric has not beaten its best value for too many steps.";
    }
    return null;
  }

  private countState(state: unknown): number {
    const key = digest(["state", state]);
    return (this.stateCounts[key] = (this.stateCounts[key] ?? 0) + 1);
  }

  /** Records a progress value (if any); returns the number of measured steps since the best was set. */
  private recordProgress(progress?: number): number {
    if (typeof progress === "number") {
      const best = this.bestAt < 0 ? -Infinity : this.history[this.bestAt];
      this.history.push(progress);
      if (progress > best) this.bestAt = this.history.length - 1;
    }
    return this.bestAt < 0 ? 0 : this.history.length - 1 - this.bestAt;
  }
}
