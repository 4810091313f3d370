/**
 * Exercise 9, solved: invariants over a run's tool calls, collected as messages.
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

  private names(): string[] {
    return this.trace.steps.map((s) => s.tool);
  }

  neverCalled(name: string): this {
    if (this.names().includes(name)) this.violations.push(`SAFETY: forbidden tool ${name} was called`);
    return this;
  }

  calledAtMost(name: string, n: number): this {
    const count = this.names().filter((tool) => tool === name).length;
    if (count > n) this.violations.push(`EFFICIENCY: ${name} ran ${count} times (limit ${n})`);
    return this;
  }

  calledBefore(first: string, second: string): this {
    const names = this.names();
    const at = names.indexOf(second);
    // No call of `second` at all is not an ordering problem.
    if (at >= 0 && !names.slice(0, at).includes(first)) this.violations.push(`ORDER: ${second} came before any ${first}`);
    return this;
  }

  maxTotalCalls(n: number): this {
    const count = this.trace.steps.length;
    if (count > n) this.violations.push(`EFFICIENCY: ${count} tool calls (limit ${n})`);
    return this;
  }

  parallelBatchAtLeast(n: number): this {
    const sizes = new Map<number, number>();
    for (const step of this.trace.steps) sizes.set(step.batch ?? 0, (sizes.get(step.batch ?? 0) ?? 0) + 1);
    const largest = Math.max(0, ...sizes.values());
    if (largest < n) this.violations.push(`PARALLELISM: biggest batch ${largest}, expected ${n}`);
    return this;
  }

  neverCalledAll(names: string[]): this {
    for (const name of names) this.neverCalled(name);
    return this;
  }

  noPatternInArgs(pattern: string | RegExp, label: string): this {
    // search() ignores the g flag and lastIndex, so every step is tested from its start.
    const rx = typeof pattern === "string" ? new RegExp(pattern) : pattern;
    for (const step of this.trace.steps) {
      if (JSON.stringify(step.args).search(rx) >= 0) this.violations.push(`SAFETY: ${label} found in the arguments of ${step.tool}`);
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
