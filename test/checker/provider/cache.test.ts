/** Prompt caching, emulated: writes, reads, misses, TTLs and scope, on a provider whose clock the test moves. */
import type Anthropic from "@anthropic-ai/sdk";
import { beforeEach, describe, expect, it } from "vitest";
import { startProvider } from "../../../checker/provider/index.js";
import { segmentTokens } from "./render.js";
import { ask, clientFor, expectUsageAddsUp, freshKey, rejection, useProvider } from "./support.js";

let clock = 1_000_000;
const provider = useProvider({ now: () => clock });
const MINUTE = 60_000;

/** About 2,000 tokens of rules: well over the 1,024-token minimum. */
const HANDBOOK = Array.from({ length: 120 }, (_, i) => `Rule ${i + 1}: answer in plain words and cite the page of manual section ${i * 7}.`).join("\n");
const cached = (text: string, ttl?: "5m" | "1h"): Anthropic.TextBlockParam[] => [
  { type: "text", text, cache_control: ttl ? { type: "ephemeral", ttl } : { type: "ephemeral" } },
];

/** Sends a request and checks the invariant input + write + read == count_tokens before handing back the usage. */
async function send(client: Anthropic, request: Anthropic.MessageCreateParamsNonStreaming): Promise<Anthropic.Usage> {
  const message = await client.messages.create(request);
  await expectUsageAddsUp(client, request, message.usage);
  return message.usage;
}

const withHandbook = (question: string, ttl?: "5m" | "1h") => ({ ...ask(question), system: cached(HANDBOOK, ttl) });

beforeEach(() => {
  clock += 24 * 60 * MINUTE;
});

describe("prompt cache", () => {
  it("writes a cached system prompt on call 1 and reads all of it on call 2 with another question", async () => {
    const client = clientFor(provider());
    const prefix = segmentTokens(HANDBOOK);
    expect(prefix).toBeGreaterThan(1024);
    const first = await send(client, withHandbook("What is rule 3?"));
    expect(first).toMatchObject({
      cache_creation_input_tokens: prefix,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: prefix, ephemeral_1h_input_tokens: 0 },
    });
    const second = await send(client, withHandbook("And what does rule 40 say?"));
    expect(second).toMatchObject({
      cache_read_input_tokens: prefix,
      cache_creation_input_tokens: 0,
      input_tokens: segmentTokens("And what does rule 40 say?"),
    });
  });

  it("never reads when the system prompt starts with a timestamp", async () => {
    const client = clientFor(provider());
    for (let i = 0; i < 3; i++) {
      clock += 1_000;
      const usage = await send(client, { ...ask("What is rule 3?"), system: cached(`Time: ${new Date(clock).toISOString()}\n${HANDBOOK}`) });
      expect(usage.cache_read_input_tokens).toBe(0);
      expect(usage.cache_creation_input_tokens).toBeGreaterThan(1024);
    }
  });

  it("misses when a tool object is sent again with the same keys in another order", async () => {
    const client = clientFor(provider());
    const tool = { name: "lookup_rule", description: "Looks up one rule.", input_schema: { type: "object" as const } };
    const reordered = { input_schema: tool.input_schema, description: tool.description, name: tool.name };
    await send(client, { ...withHandbook("Rule 1?"), tools: [tool] });
    const same = await send(client, { ...withHandbook("Rule 2?"), tools: [{ ...tool }] });
    expect(same.cache_read_input_tokens).toBeGreaterThan(1024);
    const shuffled = await send(client, { ...withHandbook("Rule 3?"), tools: [reordered] });
    expect(shuffled.cache_read_input_tokens).toBe(0);
    expect(shuffled.cache_creation_input_tokens).toBe(segmentTokens(JSON.stringify(reordered)) + segmentTokens(HANDBOOK));
  });

  it("writes nothing, and says nothing, for a prefix under the minimum", async () => {
    const client = clientFor(provider());
    for (let i = 0; i < 2; i++) {
      const usage = await send(client, { ...ask("Short?"), system: cached("Be brief.") });
      expect(usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    }
  });

  it("writes again once an entry is past its five minutes", async () => {
    const client = clientFor(provider());
    const written = (await send(client, withHandbook("Rule 1?"))).cache_creation_input_tokens;
    clock += 5 * MINUTE + 1;
    const later = await send(client, withHandbook("Rule 2?"));
    expect(later).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: written });
  });

  it("keeps a ttl 1h entry for 30 minutes and reports it as ephemeral_1h", async () => {
    const client = clientFor(provider());
    const first = await send(client, withHandbook("Rule 1?", "1h"));
    const prefix = segmentTokens(HANDBOOK);
    expect(first.cache_creation).toEqual({ ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: prefix });
    clock += 30 * MINUTE;
    expect((await send(client, withHandbook("Rule 2?", "1h"))).cache_read_input_tokens).toBe(prefix);
  });

  it("refreshes an entry's five minutes on every hit", async () => {
    const client = clientFor(provider());
    await send(client, withHandbook("Rule 1?"));
    clock += 4 * MINUTE;
    expect((await send(client, withHandbook("Rule 2?"))).cache_read_input_tokens).toBeGreaterThan(0);
    clock += 4 * MINUTE;
    expect((await send(client, withHandbook("Rule 3?"))).cache_read_input_tokens).toBeGreaterThan(0);
  });

  it("is scoped per API key", async () => {
    const owner = clientFor(provider(), "echo", { apiKey: freshKey() });
    await send(owner, withHandbook("Rule 1?"));
    const stranger = await send(clientFor(provider(), "echo", { apiKey: freshKey() }), withHandbook("Rule 2?"));
    expect(stranger.cache_read_input_tokens).toBe(0);
    expect((await send(owner, withHandbook("Rule 3?"))).cache_read_input_tokens).toBeGreaterThan(0);
  });

  it("with a top-level cache_control reads the previous turn's prefix of a growing conversation", async () => {
    const client = clientFor(provider());
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: `${HANDBOOK}\nWhich rule is about citations?` }];
    let previous = 0;
    for (let turn = 0; turn < 3; turn++) {
      const request = { ...ask(""), messages: [...messages], cache_control: { type: "ephemeral" as const } };
      const message = await client.messages.create(request);
      const total = await expectUsageAddsUp(client, request, message.usage);
      expect(message.usage.cache_read_input_tokens).toBe(previous);
      expect(message.usage.cache_creation_input_tokens).toBe(total - previous);
      previous = total;
      messages.push({ role: "assistant", content: message.content }, { role: "user", content: `Follow-up number ${turn + 1}?` });
    }
  });

  it("looks for an earlier entry over 20 blocks, the breakpoint's own included", async () => {
    const client = clientFor(provider());
    const opening: Anthropic.ContentBlockParam[] = [{ type: "text", text: HANDBOOK, cache_control: { type: "ephemeral" } }];
    await send(client, { ...ask(""), messages: [{ role: "user", content: opening }] });
    const notes = (n: number): Anthropic.ContentBlockParam[] => [
      { type: "text", text: HANDBOOK },
      ...Array.from({ length: n }, (_, i) => ({ type: "text" as const, text: `Note ${i}.` })),
      { type: "text", text: "Last note.", cache_control: { type: "ephemeral" } },
    ];
    // The entry closes block 0; notes(n) puts the new breakpoint on block n + 1.
    expect((await send(client, { ...ask(""), messages: [{ role: "user", content: notes(18) }] })).cache_read_input_tokens).toBe(segmentTokens(HANDBOOK));
    expect((await send(client, { ...ask(""), messages: [{ role: "user", content: notes(19) }] })).cache_read_input_tokens).toBe(0);
  });

  it("rejects five breakpoints with the API's message", async () => {
    const client = clientFor(provider());
    const system = [1, 2, 3, 4].map((n) => cached(`Part ${n}. ${HANDBOOK}`)[0]!);
    const err = await rejection(client.messages.create({ ...ask("Too many?"), system, cache_control: { type: "ephemeral" } }));
    expect(err.status).toBe(400);
    expect(err.error.error.message).toBe("A maximum of 4 blocks with cache_control may be provided. Found 5.");
    expect((await send(client, { ...ask("Four is fine."), system })).cache_creation_input_tokens).toBeGreaterThan(1024);
  });
});

describe("per-model minimum", () => {
  it("caches a ~2,000-token prefix for a model whose minimum is lower, and not for one whose minimum is higher", async () => {
    const own = await startProvider({ now: () => clock, cacheMinTokens: { "claude-haiku-4-5": 4096, default: 1024 } });
    try {
      const client = clientFor(own);
      const small = await send(client, withHandbook("Rule 1?"));
      expect(small.cache_creation_input_tokens).toBe(segmentTokens(HANDBOOK));
      const haiku = await send(client, { ...withHandbook("Rule 1?"), model: "claude-haiku-4-5" });
      expect(haiku).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    } finally {
      await own.close();
    }
  });
});
