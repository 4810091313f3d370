/**
 * Latency you can dial, without waiting for it: the provider's sleep is injected, so these
 * tests see every wait it asks for and decide when each one ends. The first token comes after
 * `latency`, each further token `perToken` later; a whole reply waits for all of them.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startProvider, type Provider } from "../../../checker/provider/index.js";
import { ask, expectErrorResponse, freshKey, MODEL, post } from "./support.js";

/** A sleep that records each wait and ends it when the test says (or at once when `gated` is false). */
function controlledSleep() {
  const waits: number[] = [];
  const pending: Array<() => void> = [];
  let gated = false;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      waits.push(ms);
      if (gated) pending.push(resolve);
      else resolve();
    });
  return { sleep, waits, pending, gate: (on: boolean) => void (gated = on) };
}

const clock = controlledSleep();
let provider: Provider;
beforeAll(async () => void (provider = await startProvider({ sleep: clock.sleep, latencyMs: 40, perTokenMs: 2 })));
afterAll(() => provider.close());

const anthropic = (options: Record<string, string | number>) => new Anthropic({ baseURL: provider.url("echo", options), apiKey: freshKey(), maxRetries: 0 });
const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);

describe("latency and per-token pacing", () => {
  test("a whole reply waits the latency, then every output token's time; the path's values win over the provider's", async () => {
    clock.waits.length = 0;
    const reply = await anthropic({ latency: 300, perToken: 10 }).messages.create(ask("pace me"));
    expect(clock.waits).toEqual([300, reply.usage.output_tokens * 10]);

    clock.waits.length = 0;
    const plain = await anthropic({}).messages.create(ask("pace me"));
    expect(clock.waits).toEqual([40, plain.usage.output_tokens * 2]);
  });

  test("a stream waits the latency before its first byte, then paces its deltas to the same total", async () => {
    const long = "word ".repeat(120);
    clock.waits.length = 0;
    const stream = anthropic({ latency: 250, perToken: 5 }).messages.stream(ask(long));
    const message = await stream.finalMessage();
    expect(clock.waits[0]).toBe(250);
    const pacing = clock.waits.slice(1);
    // Many small waits, one after each delta, adding up to the tokens' time (less a leftover under 1 ms).
    expect(pacing.length).toBeGreaterThan(10);
    expect(sum(pacing)).toBeGreaterThan(message.usage.output_tokens * 5 - 1);
    expect(sum(pacing)).toBeLessThanOrEqual(message.usage.output_tokens * 5 + 1e-6);
  });

  test("nothing reaches the client before the latency ends; the first delta arrives while the next token is still pending", { timeout: 5_000 }, async () => {
    clock.gate(true);
    try {
      clock.waits.length = 0;
      const response = fetch(`${provider.url("echo", { latency: 100, perToken: 50 })}/v1/messages`, {
        method: "POST",
        headers: { "x-api-key": freshKey(), "anthropic-version": "2023-06-01", "content-type": "application/json" },
        body: JSON.stringify({ ...ask("one two three four five six seven eight"), stream: true }),
      });
      const arrived = await Promise.race([response.then(() => "head"), waitFor(() => clock.pending.length === 1).then(() => "waiting")]);
      expect([arrived, clock.waits]).toEqual(["waiting", [100]]);
      clock.pending.shift()!();
      const reader = (await response).body!.getReader();
      let text = "";
      while (!text.includes("text_delta")) text += new TextDecoder().decode((await reader.read()).value);
      await waitFor(() => clock.pending.length === 1);
      // The first delta is out; the provider now waits its tokens' time before the next.
      expect(text).not.toContain("message_stop");
      expect(clock.waits.length).toBe(2);
      clock.gate(false);
      while (clock.pending.length > 0) clock.pending.shift()!();
      while (!(await reader.read()).done);
    } finally {
      clock.gate(false);
      while (clock.pending.length > 0) clock.pending.shift()!();
    }
  });

  test("the chat-completions wire is paced the same way", async () => {
    clock.waits.length = 0;
    const client = new OpenAI({ baseURL: `${provider.url("echo", { latency: 120, perToken: 3 })}/v1`, apiKey: freshKey(), maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "pace me" }] });
    expect(clock.waits).toEqual([120, reply.usage!.completion_tokens * 3]);
  });

  test("a latency it cannot take is a 400 naming it, answered without waiting by it", async () => {
    clock.waits.length = 0;
    const got = await post(provider, "/s/echo/latency=fast/v1/messages", JSON.stringify(ask("hi")));
    expectErrorResponse(got, 400, 'Option "latency" of scenario "echo" must be an integer from 0 to 600000; got "fast".');
    expect(clock.waits).toEqual([40]);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setImmediate(r));
}
