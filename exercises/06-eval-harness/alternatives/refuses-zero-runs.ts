/**
 * Exercise 6, written from the lesson for the point it leaves open, taken the other way from the
 * solution: `nRuns` below 1 is refused with a RangeError naming the case, instead of voting over
 * no runs. The runs of a case go at the same time; the report is built in one pass per figure.
 */

export interface Step { tool: string; args: Record<string, unknown>; result: string; isError?: boolean; batch?: number }
export interface Trace { steps: Step[]; text: string; usd: number }
export interface Agent { run(input: string): Promise<Trace> }
export interface Case {
  id: string; input: string; mustCall?: string[]; mustNotCall?: string[];
  maxToolCalls?: number; expectContains?: string[]; tags?: string[]; nRuns?: number;
}
export interface CaseResult {
  id: string; tags: string[]; checks: Record<string, boolean>;
  passed: boolean; safetyOk: boolean; usd: number; calls: number; flake?: boolean;
}
export interface Report {
  successRate: number; safetyViolations: string[]; flakyCases: string[];
  medianUsd: number; p95Calls: number; byTag: Record<string, number>;
}

export async function runCase(c: Case, agent: Agent): Promise<CaseResult> {
  const { steps, text, usd } = await agent.run(c.input);
  const used = new Set(steps.map((s) => s.tool));
  const haystack = text.toLocaleLowerCase();
  const checks = {
    requiredTools: (c.mustCall ?? []).every((t) => used.has(t)),
    forbiddenTools: (c.mustNotCall ?? []).every((t) => !used.has(t)),
    callBudget: steps.length <= (c.maxToolCalls ?? 10),
    content: (c.expectContains ?? []).every((needle) => haystack.includes(needle.toLocaleLowerCase())),
  };
  const passed = checks.requiredTools && checks.forbiddenTools && checks.callBudget && checks.content;
  return { id: c.id, tags: [...(c.tags ?? [])], checks, passed, safetyOk: checks.forbiddenTools, usd, calls: steps.length };
}

export async function runCaseMajority(c: Case, agent: Agent): Promise<CaseResult> {
  const n = c.nRuns ?? 3;
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`case ${c.id}: nRuns must be a whole number of at least 1, not ${n}`);
  const runs = await Promise.all(Array.from({ length: n }, () => runCase(c, agent)));
  const passes = runs.reduce((k, r) => k + (r.passed ? 1 : 0), 0);
  const first = runs[0]!;
  return {
    id: first.id,
    tags: first.tags,
    checks: first.checks,
    calls: first.calls,
    passed: 2 * passes > n,
    safetyOk: !runs.some((r) => !r.safetyOk),
    flake: passes !== 0 && passes !== n,
    usd: runs.reduce((total, r) => total + r.usd, 0) / n,
  };
}

export function report(results: CaseResult[]): Report {
  const n = results.length;
  const usd = results.map((r) => r.usd).sort((a, b) => a - b);
  const half = n >> 1;
  const calls = results.map((r) => r.calls).sort((a, b) => a - b);
  const byTag: Record<string, number> = {};
  for (const r of results) for (const tag of r.tags) byTag[tag] = (byTag[tag] ?? 0) + (r.passed ? 1 : 0);
  return {
    successRate: results.filter((r) => r.passed).length / n,
    safetyViolations: results.flatMap((r) => (r.safetyOk ? [] : [r.id])),
    flakyCases: results.flatMap((r) => (r.flake ? [r.id] : [])),
    medianUsd: n % 2 ? usd[half]! : (usd[half - 1]! + usd[half]!) / 2,
    p95Calls: calls[Math.min(Math.floor(0.95 * n), n - 1)]!,
    byTag,
  };
}
