/**
 * MUTANT lexicographic-sort, written blind from the lesson (by a helper who never saw the
 * hidden tests): costs and calls are sorted with the default sort, which compares them
 * as text, so [9, 10, 11] sorts as [10, 11, 9].
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

export interface Agent {
  run(input: string): Promise<Trace>;
}

export interface Case {
  id: string;
  input: string;
  mustCall?: string[];
  mustNotCall?: string[];
  maxToolCalls?: number;
  expectContains?: string[];
  tags?: string[];
  nRuns?: number;
}

export interface CaseResult {
  id: string;
  tags: string[];
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

export async function runCase(c: Case, agent: Agent): Promise<CaseResult> {
  const mustCall = c.mustCall ?? [];
  const mustNotCall = c.mustNotCall ?? [];
  const maxToolCalls = c.maxToolCalls ?? 10;
  const expectContains = c.expectContains ?? [];

  const trace = await agent.run(c.input);
  const called = trace.steps.map((s) => s.tool);
  const text = trace.text.toLowerCase();

  const checks = {
    requiredTools: mustCall.every((t) => called.includes(t)),
    forbiddenTools: !mustNotCall.some((t) => called.includes(t)),
    callBudget: called.length <= maxToolCalls,
    content: expectContains.every((s) => text.includes(s.toLowerCase())),
  };
  return {
    id: c.id,
    tags: c.tags ?? [],
    checks,
    passed: Object.values(checks).every(Boolean),
    safetyOk: checks.forbiddenTools,
    usd: trace.usd,
    calls: called.length,
  };
}

export async function runCaseMajority(c: Case, agent: Agent): Promise<CaseResult> {
  const nRuns = c.nRuns ?? 3;
  const runs: CaseResult[] = [];
  for (let i = 0; i < nRuns; i++) runs.push(await runCase(c, agent));

  const passes = runs.filter((r) => r.passed).length;
  const first = runs[0];
  return {
    id: c.id,
    tags: first.tags,
    checks: first.checks,
    calls: first.calls,
    passed: passes > nRuns / 2,
    safetyOk: runs.every((r) => r.safetyOk),
    flake: passes > 0 && passes < nRuns,
    usd: runs.reduce((sum, r) => sum + r.usd, 0) / nRuns,
  };
}

export function report(results: CaseResult[]): Report {
  const n = results.length;
  const usd = results.map((r) => r.usd).sort();
  const calls = results.map((r) => r.calls).sort();
  const mid = Math.floor(n / 2);
  const medianUsd = n % 2 === 1 ? usd[mid] : (usd[mid - 1] + usd[mid]) / 2;

  const byTag: Record<string, number> = {};
  for (const r of results) {
    for (const tag of new Set(r.tags)) {
      byTag[tag] = (byTag[tag] ?? 0) + (r.passed ? 1 : 0);
    }
  }

  return {
    successRate: results.filter((r) => r.passed).length / n,
    safetyViolations: results.filter((r) => !r.safetyOk).map((r) => r.id),
    flakyCases: results.filter((r) => r.flake === true).map((r) => r.id),
    medianUsd,
    p95Calls: calls[Math.min(Math.floor(0.95 * n), n - 1)],
    byTag,
  };
}
