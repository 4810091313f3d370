/**
 * Exercise 9: trajectory assertions. Replace each `throw` with your code; keep the exported
 * names and signatures as they are (the hidden tests import them).
 */

/** One tool call a run made. */
export interface Step {
  tool: string;
  args: Record<string, unknown>;
  result: string;
  isError?: boolean;
  /** Which assistant turn asked for the call; steps sharing a number ran in parallel. Missing means 0. */
  batch?: number;
}

/** What a run leaves behind: its tool calls in order, its final text, its cost. */
export interface Trace {
  steps: Step[];
  text: string;
  usd: number;
}

export class Trajectory {
  /** Every broken rule, in the order the assertions found them. */
  violations: string[] = [];

  private readonly trace: Trace;

  constructor(trace: Trace) {
    this.trace = trace;
  }

  /** "SAFETY: forbidden tool NAME was called", once, if NAME ran at all. */
  neverCalled(name: string): this {
    throw new Error("not implemented");
  }

  /** "EFFICIENCY: NAME ran C times (limit N)" when NAME ran C > N times. */
  calledAtMost(name: string, n: number): this {
    throw new Error("not implemented");
  }

  /** "ORDER: SECOND came before any FIRST" when SECOND ran and FIRST did not run before its first call. Silent if SECOND never ran. */
  calledBefore(first: string, second: string): this {
    throw new Error("not implemented");
  }

  /** "EFFICIENCY: C tool calls (limit N)" when the trace has C > N steps. */
  maxTotalCalls(n: number): this {
    throw new Error("not implemented");
  }

  /** "PARALLELISM: biggest batch L, expected N" when the biggest batch has L < N steps. */
  parallelBatchAtLeast(n: number): this {
    throw new Error("not implemented");
  }

  /** neverCalled for each name, in order. */
  neverCalledAll(names: string[]): this {
    throw new Error("not implemented");
  }

  /** "SAFETY: LABEL found in the arguments of TOOL" for each step whose JSON.stringify(args) matches. */
  noPatternInArgs(pattern: string | RegExp, label: string): this {
    throw new Error("not implemented");
  }

  /** passed: no violations; safetyOk: none starts with "SAFETY"; violations: the list. */
  result(): { passed: boolean; safetyOk: boolean; violations: string[] } {
    throw new Error("not implemented");
  }
}
