// Written blind from the lesson by a helper who never read the hidden tests.
/**
 * Trajectory assertions, variant: the constructor indexes the trace once into
 * tool -> list of step positions and batch -> size; assertions read the index.
 * The pattern is matched with String.prototype.search, which ignores lastIndex.
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
  private readonly positions = new Map<string, number[]>();
  private readonly batchSizes: number[];

  constructor(trace: Trace) {
    this.trace = trace;
    const steps = trace?.steps ?? [];
    const batches = new Map<number, number>();
    steps.forEach((s, i) => {
      const list = this.positions.get(s.tool);
      if (list) list.push(i);
      else this.positions.set(s.tool, [i]);
      batches.set(s.batch ?? 0, (batches.get(s.batch ?? 0) ?? 0) + 1);
    });
    this.batchSizes = [...batches.values()];
  }

  private at(name: string): number[] {
    return this.positions.get(name) ?? [];
  }

  private add(message: string): this {
    this.violations.push(message);
    return this;
  }

  neverCalled(name: string): this {
    return this.at(name).length > 0 ? this.add(`SAFETY: forbidden tool ${name} was called`) : this;
  }

  calledAtMost(name: string, n: number): this {
    const c = this.at(name).length;
    return c > n ? this.add(`EFFICIENCY: ${name} ran ${c} times (limit ${n})`) : this;
  }

  calledBefore(first: string, second: string): this {
    const secondAt = this.at(second);
    if (secondAt.length === 0) return this;
    const firstAt = this.at(first);
    const ok = firstAt.length > 0 && firstAt[0] < secondAt[0];
    return ok ? this : this.add(`ORDER: ${second} came before any ${first}`);
  }

  maxTotalCalls(n: number): this {
    const c = this.trace?.steps?.length ?? 0;
    return c > n ? this.add(`EFFICIENCY: ${c} tool calls (limit ${n})`) : this;
  }

  parallelBatchAtLeast(n: number): this {
    const largest = this.batchSizes.reduce((m, x) => (x > m ? x : m), 0);
    return largest < n ? this.add(`PARALLELISM: biggest batch ${largest}, expected ${n}`) : this;
  }

  neverCalledAll(names: string[]): this {
    names.forEach((name) => this.neverCalled(name));
    return this;
  }

  noPatternInArgs(pattern: string | RegExp, label: string): this {
    let re: RegExp;
    try {
      re = pattern instanceof RegExp ? pattern : new RegExp(pattern);
    } catch {
      re = new RegExp(String(pattern).replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    }
    for (const step of this.trace?.steps ?? []) {
      let json = "";
      try {
        json = JSON.stringify(step.args) ?? "";
      } catch {
        continue;
      }
      if (json.search(re) !== -1) this.add(`SAFETY: ${label} found in the arguments of ${step.tool}`);
    }
    return this;
  }

  result(): { passed: boolean; safetyOk: boolean; violations: string[] } {
    const violations = [...this.violations];
    return {
      passed: violations.length === 0,
      safetyOk: violations.every((v) => !v.startsWith("SAFETY")),
      violations,
    };
  }
}
