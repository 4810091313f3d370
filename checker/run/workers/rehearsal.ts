/**
 * One rehearsal of a hidden test's path through the SDK: a small agent run against a scripted
 * provider (parallel tool calls, results sent back), now and then a stream and a caught 429.
 * Run over and over while a process waits for a save, it gets the SDK's and fetch's paths
 * compiled by V8's optimising tiers: one pass is not enough (the first thirty calls after a
 * single pass cost ~18 ms each, against ~1.6 ms once warm). Both a spare worker (warm-up.ts)
 * and a spare learner's realm (checker/realm/entry.ts) rehearse, each with its own SDK.
 */
import type AnthropicSdk from "@anthropic-ai/sdk";

type Sdk = typeof AnthropicSdk;
/** The two scenarios' URLs on the provider the rehearsal runs against. */
export interface RehearsalUrls {
  weather: string;
  /** rate-limited with one fault: a caught 429. */
  rateLimited: string;
}

/** Enough rehearsals to reach the optimised tiers; bounded so an unused spare goes quiet. */
export const MAX_PASSES = 40;

/** The one tool a rehearsal offers (the membrane's practice offers it too: realm/practice.ts). */
export const WEATHER = {
  name: "get_weather",
  description: "Weather for a city",
  input_schema: { type: "object" as const, properties: { city: { type: "string" }, day: { type: "string" } }, required: ["city"] },
};

export async function rehearse(Anthropic: Sdk, urls: RehearsalUrls, pass: number, signal: AbortSignal): Promise<void> {
  const stopped = () => signal.aborted;
  const client = new Anthropic({ baseURL: urls.weather, apiKey: `warm-up-${pass}`, maxRetries: 0 });
  const messages: AnthropicSdk.MessageParam[] = [{ role: "user", content: `Weather in Paris, Tokyo and Lima? (${pass})` }];
  for (let turn = 0; turn < 4 && !stopped(); turn++) {
    const reply = await client.messages.create({ model: "claude-opus-5", max_tokens: 256, tools: [WEATHER], messages }, { signal });
    if (reply.stop_reason !== "tool_use") break;
    messages.push({ role: "assistant", content: reply.content });
    const results = reply.content.flatMap((b) => (b.type === "tool_use" ? [{ type: "tool_result" as const, tool_use_id: b.id, content: "14C" }] : []));
    messages.push({ role: "user", content: results });
  }
  if (pass % 4 === 0 && !stopped()) {
    await client.messages.stream({ model: "claude-opus-5", max_tokens: 64, tools: [WEATHER], messages: messages.slice(0, 1) }, { signal }).finalMessage();
    const limited = new Anthropic({ baseURL: urls.rateLimited, apiKey: `warm-up-${pass}`, maxRetries: 0 });
    await limited.messages.create({ model: "claude-opus-5", max_tokens: 8, messages: [{ role: "user", content: "hi" }] }, { signal }).catch(() => undefined);
  }
}

/** Rehearses until MAX_PASSES, until `signal` aborts, or until a pass fails (the provider is gone). */
export async function rehearseUntil(Anthropic: Sdk, urls: RehearsalUrls, signal: AbortSignal): Promise<void> {
  for (let pass = 0; pass < MAX_PASSES && !signal.aborted; pass++) {
    const failed = await rehearse(Anthropic, urls, pass, signal).then(
      () => false,
      () => true,
    );
    if (failed) return;
  }
}
