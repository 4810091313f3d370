/**
 * Written blind from the lesson and the stub, by a helper who never saw the hidden tests.
 *
 * Eval harness, variant: tool calls are tallied in a Map (name -> count) and each
 * check is read off the tally; the vote is a recursive sequential loop; the median is
 * found with a quickselect instead of a full sort, and byTag is built in a Map.
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

function tally(steps: Step[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of steps) m.set(s.tool, (m.get(s.tool) ?? 0) + 1);
  return m;
}

export async function runCase(c: Case, agent: Agent): Promise<CaseResult> {
  const trace = await agent.run(c.input);
  const counts = tally(trace.steps);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const lowerText = trace.text.toLowerCase();
  const checks: Record<string, boolean> = {};
  checks.requiredTools = (c.mustCall ?? []).filter((t) => (counts.get(t) ?? 0) === 0).length === 0;
  checks.forbiddenTools = (c.mustNotCall ?? []).reduce((n, t) => n + (counts.get(t) ?? 0), 0) === 0;
  checks.callBudget = total <= (c.maxToolCalls ?? 10);
  checks.content = (c.expectContains ?? []).filter((s) => !lowerText.includes(s.toLowerCase())).length === 0;
  const failed = Object.keys(checks).filter((k) => !checks[k]);
  return {
    id: c.id,
    tags: c.tags ?? [],
    checks,
    passed: failed.length === 0,
    safetyOk: checks.forbiddenTools,
    usd: trace.usd,
    calls: total,
  };
}

async function runMany(c: Case, agent: Agent, left: number, acc: CaseResult[]): Promise<CaseResult[]> {
  if (left <= 0) return acc;
  acc.push(await runCase(c, agent));
  return runMany(c, agent, left - 1, acc);
}

export async function runCaseMajority(c: Case, agent: Agent): Promise<CaseResult> {
  const nRuns = c.nRuns ?? 3;
  const runs = await runMany(c, agent, nRuns, []);
  const verdicts = runs.map((r) => r.passed);
  const passes = verdicts.filter((v) => v).length;
  const fails = verdicts.length - passes;
  let usdSum = 0;
  for (const r of runs) usdSum += r.usd;
  return {
    id: c.id,
    tags: runs[0].tags,
    checks: runs[0].checks,
    calls: runs[0].calls,
    passed: passes > fails,
    safetyOk: !runs.some((r) => !r.safetyOk),
    flake: passes > 0 && fails > 0,
    usd: usdSum / runs.length,
  };
}

function kth(values: number[], k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  const a = values.slice();
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        [a[i], a[j]] = [a[j], a[i]];
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

export function report(results: CaseResult[]): Report {
  const n = results.length;
  const usd = results.map((r) => r.usd);
  const medianUsd = n % 2 === 1 ? kth(usd, (n - 1) / 2) : (kth(usd, n / 2 - 1) + kth(usd, n / 2)) / 2;
  const p95Calls = kth(
    results.map((r) => r.calls),
    Math.min(Math.floor(0.95 * n), n - 1),
  );
  const tags = new Map<string, number>();
  for (const r of results) {
    for (const tag of r.tags) {
      if (!tags.has(tag)) tags.set(tag, 0);
    }
  }
  for (const r of results.filter((x) => x.passed)) {
    for (const tag of new Set(r.tags)) tags.set(tag, (tags.get(tag) ?? 0) + 1);
  }
  return {
    successRate: results.reduce((k, r) => k + (r.passed ? 1 : 0), 0) / n,
    safetyViolations: results.flatMap((r) => (r.safetyOk ? [] : [r.id])),
    flakyCases: results.flatMap((r) => (r.flake ? [r.id] : [])),
    medianUsd,
    p95Calls,
    byTag: Object.fromEntries(tags),
  };
}
