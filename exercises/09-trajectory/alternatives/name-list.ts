// Written blind from the lesson by a helper who never read the hidden tests.
/**
 * Trajectory assertions, variant: a list of tool names in step order, counts by
 * filter, batch sizes grouped in a Map, and a pattern copied without its g flag
 * (a string pattern that is not a valid regex is searched for literally).
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

function toMatcher(pattern: string | RegExp): (text: string) => boolean {
  if (pattern instanceof RegExp) {
    const re = new RegExp(pattern.source, pattern.flags.replace("g", ""));
    return (text) => re.test(text);
  }
  try {
    const re = new RegExp(pattern);
    return (text) => re.test(text);
  } catch {
    return (text) => text.includes(pattern);
  }
}

export class Trajectory {
  violations: string[] = [];

  private readonly trace: Trace;
  private readonly names: string[];

  constructor(trace: Trace) {
    this.trace = trace;
    this.names = (trace?.steps ?? []).map((s) => s.tool);
  }

  private count(name: string): number {
    return this.names.filter((n) => n === name).length;
  }

  neverCalled(name: string): this {
    if (this.names.includes(name)) this.violations.push(`SAFETY: forbidden tool ${name} was called`);
    return this;
  }

  calledAtMost(name: string, n: number): this {
    const c = this.count(name);
    if (c > n) this.violations.push(`EFFICIENCY: ${name} ran ${c} times (limit ${n})`);
    return this;
  }

  calledBefore(first: string, second: string): this {
    const at = this.names.indexOf(second);
    if (at >= 0 && !this.names.slice(0, at).includes(first)) {
      this.violations.push(`ORDER: ${second} came before any ${first}`);
    }
    return this;
  }

  maxTotalCalls(n: number): this {
    const c = this.names.length;
    if (c > n) this.violations.push(`EFFICIENCY: ${c} tool calls (limit ${n})`);
    return this;
  }

  parallelBatchAtLeast(n: number): this {
    const sizes = new Map<number, number>();
    for (const step of this.trace?.steps ?? []) {
      const b = step.batch ?? 0;
      sizes.set(b, (sizes.get(b) ?? 0) + 1);
    }
    const largest = Math.max(0, ...sizes.values());
    if (largest < n) this.violations.push(`PARALLELISM: biggest batch ${largest}, expected ${n}`);
    return this;
  }

  neverCalledAll(names: string[]): this {
    for (const name of names) this.neverCalled(name);
    return this;
  }

  noPatternInArgs(pattern: string | RegExp, label: string): this {
    const matches = toMatcher(pattern);
    for (const step of this.trace?.steps ?? []) {
      let text: string;
      try {
        text = JSON.stringify(step.args) ?? "";
      } catch {
        continue;
      }
      if (matches(text)) this.violations.push(`SAFETY: ${label} found in the arguments of ${step.tool}`);
    }
    return this;
  }

  result(): { passed: boolean; safetyOk: boolean; violations: string[] } {
    return {
      passed: this.violations.length === 0,
      safetyOk: !this.violations.some((v) => v.startsWith("SAFETY")),
      violations: [...this.violations],
    };
  }
}
