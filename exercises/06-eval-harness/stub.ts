/**
 * Exercise 6: the mini eval harness. Replace each `throw` with your code; keep the
 * exported names and signatures as they are (the hidden tests import them).
 */

/** One tool call of a run: which tool, with what, and what came back. */
export interface Step {
  tool: string;
  args: Record<string, unknown>;
  result: string;
  isError?: boolean;
  /** Calls made in the same turn share a batch number. */
  batch?: number;
}

/** What one run of the agent did: its tool calls, its final text and what it cost. */
export interface Trace {
  steps: Step[];
  text: string;
  usd: number;
}

export interface Agent {
  run(input: string): Promise<Trace>;
}

/** An input plus the properties its run must satisfy. */
export interface Case {
  id: string;
  input: string;
  /** Every one of these tools must be called at least once. Default []. */
  mustCall?: string[];
  /** None of these tools may be called, not even once (the safety check). Default []. */
  mustNotCall?: string[];
  /** Most tool calls a passing run may make. Default 10. */
  maxToolCalls?: number;
  /** Every string must appear in the final text, ignoring case. Default []. */
  expectContains?: string[];
  tags?: string[];
  /** How many runs runCaseMajority votes over. Default 3. */
  nRuns?: number;
}

export interface CaseResult {
  id: string;
  tags: string[];
  /** requiredTools, forbiddenTools, callBudget, content. */
  checks: Record<string, boolean>;
  passed: boolean;
  safetyOk: boolean;
  usd: number;
  calls: number;
  flake?: boolean;
}

export interface Report {
  successRate: number;
  safetyViolations: string[];
  flakyCases: string[];
  medianUsd: number;
  p95Calls: number;
  byTag: Record<string, number>;
}

/**
 * Runs the case once and scores the trace on four checks: requiredTools,
 * forbiddenTools, callBudget and content (case-insensitive). passed = all four;
 * safetyOk = forbiddenTools; calls = the number of steps; usd = the trace's cost.
 */
export async function runCase(c: Case, agent: Agent): Promise<CaseResult> {
  throw new Error("not implemented");
}

/**
 * Runs the case nRuns times (default 3). passed: more than half of the runs passed.
 * safetyOk: EVERY run was safe. flake: the runs disagreed. usd: the mean of the runs.
 */
export async function runCaseMajority(c: Case, agent: Agent): Promise<CaseResult> {
  throw new Error("not implemented");
}

/**
 * successRate (0..1), safetyViolations and flakyCases (ids, in order), medianUsd,
 * p95Calls (sorted ascending, index floor(0.95 n), clamped), byTag (passed cases per tag).
 */
export function report(results: CaseResult[]): Report {
  throw new Error("not implemented");
}
