/**
 * Tier 3: the eval harness in TypeScript, next to the one piece of SDK code it needs,
 * an agent that records its run as a Trace.
 *
 * The harness never looks inside the agent: it reads the trace. So the same three
 * functions score a scripted agent in a unit test, the real loop below, or tomorrow's
 * rewrite of it. Wire it into CI as:
 *
 *   const results = await Promise.all(cases.map((c) => runCaseMajority(c, agent)));
 *   const r = report(results);
 *   if (r.successRate < BASELINE || r.safetyViolations.length > 0) process.exit(1);
 */
import Anthropic from "@anthropic-ai/sdk";

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

/** One run, four properties. The outcome is judged strictly, the route only loosely. */
export async function runCase(c: Case, agent: Agent): Promise<CaseResult> {
  const { steps, text, usd } = await agent.run(c.input);
  const called = new Set(steps.map((s) => s.tool));
  const answer = text.toLowerCase();
  const checks: Record<string, boolean> = {
    requiredTools: (c.mustCall ?? []).every((t) => called.has(t)),
    forbiddenTools: (c.mustNotCall ?? []).every((t) => !called.has(t)),
    callBudget: steps.length <= (c.maxToolCalls ?? 10),
    // Wording varies from run to run; capitalisation is the least of it.
    content: (c.expectContains ?? []).every((s) => answer.includes(s.toLowerCase())),
  };
  const passed = Object.values(checks).every((ok) => ok);
  return { id: c.id, tags: c.tags ?? [], checks, passed, safetyOk: checks["forbiddenTools"]!, usd, calls: steps.length };
}

/** nRuns runs at once; success by majority, safety by unanimity. */
export async function runCaseMajority(c: Case, agent: Agent): Promise<CaseResult> {
  const n = c.nRuns ?? 3;
  const runs = await Promise.all(Array.from({ length: n }, () => runCase(c, agent)));
  const passes = runs.filter((r) => r.passed).length;
  const first = runs[0]!;
  return {
    ...first,
    passed: 2 * passes > n,
    // A safety property that held on two runs out of three did not hold.
    safetyOk: runs.every((r) => r.safetyOk),
    // Underspecified case: fix its wording rather than raising n until the noise averages out.
    flake: passes !== 0 && passes !== n,
    usd: runs.reduce((total, r) => total + r.usd, 0) / n,
  };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const half = s.length >> 1;
  return s.length & 1 ? s[half]! : (s[half - 1]! + s[half]!) / 2;
}

export function report(results: CaseResult[]) {
  const n = results.length;
  const calls = results.map((r) => r.calls).sort((a, b) => a - b);
  const byTag: Record<string, number> = {};
  for (const r of results) for (const tag of r.tags) byTag[tag] = (byTag[tag] ?? 0) + (r.passed ? 1 : 0);
  return {
    successRate: results.filter((r) => r.passed).length / n,
    safetyViolations: results.filter((r) => !r.safetyOk).map((r) => r.id), // a list: one blocks the release
    flakyCases: results.filter((r) => r.flake === true).map((r) => r.id),
    medianUsd: median(results.map((r) => r.usd)),
    // floor(0.95 n): on 20 cases that is index 19, the worst case seen.
    p95Calls: calls[Math.min(Math.floor(0.95 * n), n - 1)]!,
    byTag,
  };
}

/** What one model call costs at claude-opus-5's prices, both cache terms included. */
function usdOf(u: Anthropic.Usage): number {
  const input = 5e-6;
  return u.input_tokens * input + u.output_tokens * 25e-6 + (u.cache_creation_input_tokens ?? 0) * input * 1.25 + (u.cache_read_input_tokens ?? 0) * input * 0.1;
}

/**
 * The agent side: exercise 1's loop, recording every tool call as a Step. The eval
 * harness only needs this shape, so any agent that produces it can be scored.
 */
export function tracedAgent(
  client: Anthropic,
  tools: Anthropic.Tool[],
  dispatch: (name: string, input: Record<string, unknown>) => Promise<string>,
  maxSteps = 12,
): Agent {
  return {
    async run(input) {
      const messages: Anthropic.MessageParam[] = [{ role: "user", content: input }];
      const steps: Step[] = [];
      let usd = 0;
      for (let batch = 0; batch < maxSteps; batch++) {
        const reply = await client.messages.create({ model: "claude-opus-5", max_tokens: 4096, tools, messages });
        usd += usdOf(reply.usage);
        const uses = reply.content.filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
        if (uses.length === 0) {
          const text = reply.content.map((b) => (b.type === "text" ? b.text : "")).join("");
          return { steps, text, usd };
        }
        messages.push({ role: "assistant", content: reply.content });
        const results = await Promise.all(
          uses.map(async (use) => {
            const args = use.input as Record<string, unknown>;
            try {
              const result = await dispatch(use.name, args);
              steps.push({ tool: use.name, args, result, batch });
              return { type: "tool_result" as const, tool_use_id: use.id, content: result };
            } catch (err) {
              const result = String((err as Error).message);
              steps.push({ tool: use.name, args, result, isError: true, batch });
              return { type: "tool_result" as const, tool_use_id: use.id, content: result, is_error: true };
            }
          }),
        );
        messages.push({ role: "user", content: results });
      }
      return { steps, text: `stopped after ${maxSteps} model calls`, usd };
    },
  };
}
