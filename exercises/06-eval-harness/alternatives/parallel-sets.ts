/**
 * Written blind from the lesson and the stub, by a helper who never saw the hidden tests.
 *
 * Eval harness, variant: the called tools go into a Set, the runs of a vote start
 * together with Promise.all, the report walks the results once with counters, and
 * the median comes from a Float64Array (whose sort is numeric by default).
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
  const { id, input, mustCall = [], mustNotCall = [], maxToolCalls = 10, expectContains = [], tags = [] } = c;
  const trace = await agent.run(input);
  const used = new Set<string>();
  for (const step of trace.steps) used.add(step.tool);
  const haystack = trace.text.toLocaleLowerCase();

  let requiredTools = true;
  for (const t of mustCall) if (!used.has(t)) requiredTools = false;
  let forbiddenTools = true;
  for (const t of mustNotCall) if (used.has(t)) forbiddenTools = false;
  const callBudget = !(trace.steps.length > maxToolCalls);
  let content = true;
  for (const s of expectContains) if (haystack.indexOf(s.toLocaleLowerCase()) < 0) content = false;

  return {
    id,
    tags: [...tags],
    checks: { requiredTools, forbiddenTools, callBudget, content },
    passed: requiredTools && forbiddenTools && callBudget && content,
    safetyOk: forbiddenTools,
    usd: trace.usd,
    calls: trace.steps.length,
  };
}

export async function runCaseMajority(c: Case, agent: Agent): Promise<CaseResult> {
  const nRuns = c.nRuns ?? 3;
  const runs = await Promise.all(Array.from({ length: nRuns }, () => runCase(c, agent)));
  let passes = 0;
  let unsafe = 0;
  let total = 0;
  for (const r of runs) {
    if (r.passed) passes++;
    if (!r.safetyOk) unsafe++;
    total += r.usd;
  }
  const [first] = runs;
  return {
    ...first,
    passed: 2 * passes > nRuns,
    safetyOk: unsafe === 0,
    flake: passes !== 0 && passes !== nRuns,
    usd: total / nRuns,
  };
}

export function report(results: CaseResult[]): Report {
  const n = results.length;
  let passed = 0;
  const safetyViolations: string[] = [];
  const flakyCases: string[] = [];
  const byTag: Record<string, number> = {};
  const usd = new Float64Array(n);
  const calls = new Float64Array(n);
  results.forEach((r, i) => {
    if (r.passed) passed++;
    if (!r.safetyOk) safetyViolations.push(r.id);
    if (r.flake) flakyCases.push(r.id);
    for (const tag of r.tags) if (!(tag in byTag)) byTag[tag] = 0;
    for (const tag of new Set(r.tags)) if (r.passed) byTag[tag] += 1;
    usd[i] = r.usd;
    calls[i] = r.calls;
  });
  usd.sort();
  calls.sort();
  const medianUsd = n % 2 ? usd[(n - 1) / 2] : (usd[n / 2 - 1] + usd[n / 2]) / 2;
  const idx = Math.floor(0.95 * n);
  return {
    successRate: passed / n,
    safetyViolations,
    flakyCases,
    medianUsd,
    p95Calls: calls[idx < n ? idx : n - 1],
    byTag,
  };
}
