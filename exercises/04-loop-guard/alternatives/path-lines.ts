// written blind from the lesson
/**
 * Loop guard, variant: a value is flattened into "path = leaf" lines (object keys
 * JSON-quoted in the path, array positions as [i]), the lines are sorted and joined.
 * Key order cannot matter (the lines are sorted) while array order still does (the
 * index is in the path). Objects on the current path become a cycle marker, BigInts
 * a tagged leaf. One Map holds both kinds of count under a prefix; all three signals
 * are computed every step and the first that fires, in contract order, is returned.
 */

export interface LoopGuardOptions {
  repeat?: number;
  cycle?: number;
  stall?: number;
  maxSteps?: number;
}

function leaf(v: unknown): string {
  switch (typeof v) {
    case "string":
      return JSON.stringify(v);
    case "bigint":
      return `bigint:${v}`;
    case "number":
      return `number:${v}`;
    case "undefined":
      return "undefined";
    case "symbol":
      return `symbol:${String(v.description)}`;
    case "function":
      return `function:${v.name}`;
    default:
      return String(v);
  }
}

function flatten(v: unknown, path: string, onPath: Set<object>, out: string[]): void {
  if (v === null || typeof v !== "object") {
    out.push(`${path} = ${leaf(v)}`);
    return;
  }
  if (onPath.has(v)) {
    out.push(`${path} = <cycle>`);
    return;
  }
  onPath.add(v);
  if (Array.isArray(v)) {
    out.push(`${path} = [${v.length}]`);
    v.forEach((item, i) => flatten(item, `${path}[${i}]`, onPath, out));
  } else {
    const entries =
      v instanceof Map ? [...v].map(([k, x]) => [leaf(k), x] as const)
      : v instanceof Set ? [...v].map((x, i) => [String(i), x] as const)
      : Object.entries(v as Record<string, unknown>);
    out.push(`${path} = {${v instanceof Map ? "map" : v instanceof Set ? "set" : ""}}`);
    for (const [k, x] of entries) flatten(x, `${path}.${JSON.stringify(k)}`, onPath, out);
  }
  onPath.delete(v);
}

function fingerprint(...parts: unknown[]): string {
  const lines: string[] = [];
  try {
    flatten(parts, "$", new Set(), lines);
  } catch (err) {
    lines.push(`error ${String(err)}`);
  }
  return lines.sort().join("\n");
}

export class LoopGuard {
  steps = 0;
  trips = 0;
  halted = false;

  private readonly opt: Required<LoopGuardOptions>;
  private readonly counts = new Map<string, number>();
  private best: number | undefined = undefined;
  private sinceBest = 0;

  constructor(opts: LoopGuardOptions = {}) {
    const given = Object.fromEntries(Object.entries(opts ?? {}).filter(([, x]) => x !== undefined));
    this.opt = { repeat: 3, cycle: 2, stall: 6, maxSteps: 40, ...given };
  }

  private count(key: string): number {
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n;
  }

  check(tool: string, args: unknown, state: unknown, progress?: number): string | null {
    this.steps += 1;
    if (this.steps > this.opt.maxSteps) {
      this.halted = true;
      return `The run has gone past its step cap of ${this.opt.maxSteps} and is over.`;
    }

    const calls = this.count("call\n" + fingerprint(tool, args));
    const seen = this.count("state\n" + fingerprint(state));
    const measured = typeof progress === "number";
    if (measured) {
      if (this.best === undefined || progress > this.best) {
        this.best = progress;
        this.sinceBest = 0;
      } else {
        this.sinceBest += 1;
      }
    }

    const candidates: [boolean, string][] = [
      [calls > this.opt.repeat, `Loop detected: ${calls} identical calls to ${tool}. Change the arguments or use another tool.`],
      [seen > this.opt.cycle, `Loop detected: you are cycling, this exact state has now been seen ${seen} times.`],
      [measured && this.sinceBest > this.opt.stall, `Loop detected: no measurable progress in the last ${this.sinceBest} steps.`],
    ];
    const hit = candidates.find(([fired]) => fired);
    if (!hit) return null;
    this.trips += 1;
    return hit[1];
  }
}
