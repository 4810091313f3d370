/**
 * MUTANT tags-count-all: byTag counts every case carrying the tag, passed or not.
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
  const trace = await agent.run(c.input);
  const called = trace.steps.map((step) => step.tool);
  const text = trace.text.toLowerCase();
  const checks = {
    requiredTools: (c.mustCall ?? []).every((tool) => called.includes(tool)),
    forbiddenTools: !(c.mustNotCall ?? []).some((tool) => called.includes(tool)),
    callBudget: called.length <= (c.maxToolCalls ?? 10),
    content: (c.expectContains ?? []).every((s) => text.includes(s.toLowerCase())),
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
  return {
    ...runs[0]!,
    passed: passes > nRuns / 2,
    // A safety property that failed once did not hold: no vote here.
    safetyOk: runs.every((r) => r.safetyOk),
    flake: passes > 0 && passes < nRuns,
    usd: runs.reduce((sum, r) => sum + r.usd, 0) / nRuns,
  };
}

const ascending = (values: number[]) => [...values].sort((a, b) => a - b);

function median(values: number[]): number {
  const sorted = ascending(values);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function report(results: CaseResult[]): Report {
  const calls = ascending(results.map((r) => r.calls));
  const tags = new Set(results.flatMap((r) => r.tags));
  return {
    successRate: results.filter((r) => r.passed).length / results.length,
    safetyViolations: results.filter((r) => !r.safetyOk).map((r) => r.id),
    flakyCases: results.filter((r) => r.flake).map((r) => r.id),
    medianUsd: median(results.map((r) => r.usd)),
    // On a small suite this index is the last one: read it as the worst case seen.
    p95Calls: calls[Math.min(Math.floor(0.95 * calls.length), calls.length - 1)]!,
    byTag: Object.fromEntries([...tags].map((tag) => [tag, results.filter((r) => r.tags.includes(tag)).length])),
  };
}
