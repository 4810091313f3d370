import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import { startProvider, type Provider } from "../../../../checker/provider/index.js";
import { usdOf } from "../../../../checker/testing/pricing.js";
import { openGate, worstCaseUsd, type Gate, type GateOptions } from "../../../../checker/testing/live/gate.js";

// The gate is a live run's only way out: the scripted provider plays the real endpoint, so the
// key it was shown and the usage it charged are known exactly.

let provider: Provider;
beforeAll(async () => {
  provider = await startProvider();
});
afterAll(() => provider.close());

async function gateTo(scenario: string, options: Partial<GateOptions> = {}, path: Record<string, number> = {}): Promise<Gate> {
  const gate = await openGate({ upstream: provider.url(scenario, path), apiKey: null, maxUsd: 0.5, ...options });
  onTestFinished(() => gate.close());
  return gate;
}

const client = (gate: Gate, apiKey = "lab-worker-key") => new Anthropic({ baseURL: gate.url, apiKey, maxRetries: 0 });
const question = (text: string, max_tokens = 1024, model = "claude-opus-5") => ({ model, max_tokens, messages: [{ role: "user" as const, content: text }] });
const charged = (key: string) => provider.requests.filter((r) => r.apiKey === key && r.usage).map((r) => usdOf(r.usage!, (r.body as { model: string }).model));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe("the live gate", () => {
  test("the endpoint sees the gate's key, never the one the worker's client holds", async () => {
    const gate = await gateTo("echo", { apiKey: "sk-real-key-gate-1" });

    await client(gate, "lab-worker-key").messages.create(question("hello"));

    expect(provider.requests.filter((r) => r.apiKey === "sk-real-key-gate-1")).toHaveLength(1);
    expect(provider.requests.some((r) => r.apiKey === "lab-worker-key")).toBe(false);
  });

  test("the money is counted from the usage the endpoint returned, streamed replies included", async () => {
    const key = "sk-real-key-gate-2";
    const gate = await gateTo("exact-reply", { apiKey: key }, { out: 300 });
    const c = client(gate);

    await c.messages.create(question("one"));
    await c.messages.stream(question("two, streamed")).finalMessage();
    await c.messages.create(question("three", 1024, "claude-haiku-4-5"));

    const spend = gate.spend();
    expect(spend.usd).toBeCloseTo(sum(charged(key)), 9);
    expect(spend.calls).toBe(charged(key).length);
    const usages = provider.requests.filter((r) => r.apiKey === key).map((r) => r.usage!);
    expect(spend.outputTokens).toBe(sum(usages.map((u) => u.output_tokens)));
    expect(spend.inputTokens).toBe(sum(usages.map((u) => u.input_tokens)));
  });

  test("no request is sent whose worst case would take the spend past --max-usd: it is held back with the API's 400, and the spend stays under the cap", async () => {
    const key = "sk-real-key-gate-3";
    // Haiku with max_tokens 1000 may cost up to about $0.0065; each reply costs about $0.002.
    const gate = await gateTo("exact-reply", { apiKey: key, maxUsd: 0.01 }, { out: 400 });
    const c = client(gate);

    const outcomes: unknown[] = [];
    for (let i = 0; i < 6; i++) outcomes.push(await c.messages.create(question(`question ${i}`, 1000, "claude-haiku-4-5")).catch((err: unknown) => err));

    const held = outcomes.filter((o) => o instanceof Anthropic.BadRequestError);
    expect(held.length, "requests held back").toBeGreaterThan(0);
    expect(outcomes.length - held.length, "requests let through").toBeGreaterThan(0);
    expect(
      provider.requests.filter((r) => r.apiKey === key),
      "requests the endpoint saw",
    ).toHaveLength(outcomes.length - held.length);
    expect(gate.spend().usd).toBeLessThanOrEqual(0.01);
    expect((held[0] as Error).message).toMatch(
      /^400 .*lab --live held this request back: it could cost up to \$0\.\d{4}, and \$0\.\d{4} of the --max-usd \$0\.01 is spent or promised\./,
    );
    expect(gate.capped).toMatch(/^lab --live held this request back/);
  });

  test("the worst case a request is priced at is never below what it cost", async () => {
    const key = "sk-real-key-gate-4";
    const gate = await gateTo("weather", { apiKey: key });
    const tools: Anthropic.Tool[] = [{ name: "get_weather", input_schema: { type: "object", properties: { city: { type: "string" } } } }];

    await client(gate).messages.create({ ...question("Weather in Paris, Tokyo and Lima?", 200), tools });
    await client(gate).messages.create({ ...question("x".repeat(20_000), 200, "claude-sonnet-5"), tools });

    for (const exchange of provider.requests.filter((r) => r.apiKey === key)) {
      const body = exchange.body as { model: string };
      const bytes = Buffer.byteLength(JSON.stringify(body));
      expect(worstCaseUsd(body, bytes)).toBeGreaterThanOrEqual(usdOf(exchange.usage!, body.model));
    }
  });
});
