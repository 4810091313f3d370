// Written blind from the lesson by a helper who never read the hidden tests.
/**
 * Trajectory assertions, variant: every assertion is one explicit loop over the steps
 * with early exits, batch sizes counted in a prototype-less record, the RegExp's
 * lastIndex reset before every test, and result() counting SAFETY findings.
 */

export interface Step {
  tool: string;
  args: Record<string, unknown>;
  result: string;
  isError?: boolean;
  batch?: number;
}

export interface Trace {
  steps: Step[];
  text: string;
  usd: number;
}

export class Trajectory {
  violations: string[] = [];

  private readonly trace: Trace;

  constructor(trace: Trace) {
    this.trace = trace;
  }

  private get steps(): Step[] {
    return Array.isArray(this.trace?.steps) ? this.trace.steps : [];
  }

  neverCalled(name: string): this {
    for (const step of this.steps) {
      if (step.tool === name) {
        this.violations.push("SAFETY: forbidden tool " + name + " was called");
        break;
      }
    }
    return this;
  }

  calledAtMost(name: string, n: number): this {
    let c = 0;
    for (const step of this.steps) if (step.tool === name) c++;
    if (c > n) this.violations.push("EFFICIENCY: " + name + " ran " + c + " times (limit " + n + ")");
    return this;
  }

  calledBefore(first: string, second: string): this {
    let firstSeen = false;
    for (const step of this.steps) {
      if (step.tool === second) {
        if (!firstSeen) this.violations.push("ORDER: " + second + " came before any " + first);
        break;
      }
      if (step.tool === first) firstSeen = true;
    }
    return this;
  }

  maxTotalCalls(n: number): this {
    const c = this.steps.length;
    if (!(c <= n)) this.violations.push("EFFICIENCY: " + c + " tool calls (limit " + n + ")");
    return this;
  }

  parallelBatchAtLeast(n: number): this {
    const sizes: Record<string, number> = Object.create(null);
    let largest = 0;
    for (const step of this.steps) {
      const key = String(step.batch ?? 0);
      sizes[key] = (sizes[key] ?? 0) + 1;
      if (sizes[key] > largest) largest = sizes[key];
    }
    if (largest < n) this.violations.push("PARALLELISM: biggest batch " + largest + ", expected " + n);
    return this;
  }

  neverCalledAll(names: string[]): this {
    return names.reduce<this>((t, name) => t.neverCalled(name), this);
  }

  noPatternInArgs(pattern: string | RegExp, label: string): this {
    let re: RegExp | null;
    try {
      re = typeof pattern === "string" ? new RegExp(pattern) : pattern;
    } catch {
      re = null;
    }
    for (const step of this.steps) {
      let json: string | undefined;
      try {
        json = JSON.stringify(step.args);
      } catch {
        json = undefined;
      }
      if (json === undefined) continue;
      let hit: boolean;
      if (re) {
        re.lastIndex = 0;
        hit = re.test(json);
        re.lastIndex = 0;
      } else {
        hit = json.includes(pattern as string);
      }
      if (hit) this.violations.push("SAFETY: " + label + " found in the arguments of " + step.tool);
    }
    return this;
  }

  result(): { passed: boolean; safetyOk: boolean; violations: string[] } {
    let safety = 0;
    for (const v of this.violations) if (v.startsWith("SAFETY")) safety++;
    return { passed: this.violations.length === 0, safetyOk: safety === 0, violations: this.violations.slice() };
  }
}
