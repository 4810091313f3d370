/**
 * The harness chapter's experiment, rerun: exercise 12's solution on the same three-turn task
 * (`plan`) while only the provider's latency changes. Wall time grows by three times the added
 * latency, one per model call, while the harness's own share, as `lab trace` splits it, stays
 * where it was. The one test in the suite that waits for real time: each latency is run three
 * times and the fastest run kept, so a stall of a busy machine does not decide it.
 */
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startProvider, type Provider } from "../../../checker/provider/index.js";
import { newRun, run, type Tool, type TraceEvent } from "../../../solutions/12-five-exits.js";
import { wallTime, type WallTime } from "../../../src/trace/wall-time.js";

let provider: Provider;
beforeAll(async () => void (provider = await startProvider()));
afterAll(() => provider.close());

const TOOLS: Tool[] = [
  {
    name: "list_files",
    description: "Lists the files.",
    input_schema: { type: "object", properties: {} },
    readOnly: true,
    run: () => "access.log\nerrors.log",
  },
  {
    name: "read_file",
    description: "Reads a file.",
    input_schema: { type: "object", properties: { path: { type: "string" } } },
    readOnly: true,
    run: () => "worker 7 timed out after 30000 ms",
  },
];

let runs = 0;
async function measure(latency: number): Promise<{ wall: number; split: WallTime }> {
  const apiKey = `latency-${process.pid}-${++runs}`;
  const client = new Anthropic({ baseURL: provider.url("plan", { latency }), apiKey, maxRetries: 0 });
  const events: TraceEvent[] = [];
  const started = performance.now();
  const state = await run(newRun("Which file mentions a timeout?"), TOOLS, { client, onEvent: (e) => events.push(e) });
  const wall = performance.now() - started;
  expect([state.status, state.turns]).toEqual(["completed", 3]);
  const split = wallTime(
    events,
    provider.requests.filter((r) => r.apiKey === apiKey),
  )!;
  expect(split.modelCalls).toBe(3);
  // The split's span sits inside the measured one (the trace's clock is whole milliseconds).
  expect(split.wallMs).toBeLessThanOrEqual(wall + 2);
  return { wall, split };
}

/** The fastest of three runs at this latency. */
async function best(latency: number) {
  const runs = [await measure(latency), await measure(latency), await measure(latency)];
  return runs.reduce((a, b) => (b.wall < a.wall ? b : a));
}

test("wall time grows by three times the added latency; the harness's own share stays flat", { timeout: 30_000 }, async () => {
  await measure(0); // warm the SDK, the connection and the code paths first
  const at = { 0: await best(0), 100: await best(100), 300: await best(300) };
  const row = (l: 0 | 100 | 300) =>
    `latency ${l}: wall ${at[l].wall.toFixed(1)} ms, model ${at[l].split.modelMs!.toFixed(1)} ms, tools ${at[l].split.toolsMs} ms, harness ${at[l].split.harnessMs!.toFixed(1)} ms`;
  console.log([row(0), row(100), row(300)].join("\n"));

  for (const added of [100, 300] as const) {
    // Three model calls, each waiting `added` (a timer may round down by a millisecond; a busy machine makes it late).
    expect(at[added].split.modelMs!, row(added)).toBeGreaterThanOrEqual(3 * added - 3);
    expect(at[added].split.modelMs! - at[0].split.modelMs!, row(added)).toBeLessThanOrEqual(3 * added + 100);
    // The wall clock grows by about as much: the model's share, give or take what a busy machine adds or took from the first run.
    const wall = at[added].wall - at[0].wall;
    expect(wall, row(added)).toBeGreaterThanOrEqual(3 * added - 100);
    expect(wall, row(added)).toBeLessThanOrEqual(3 * added + 150);
    // The harness's own share does not grow with the latency.
    expect(at[added].split.harnessMs!, row(added)).toBeLessThanOrEqual(at[0].split.harnessMs! + 60);
  }
});
