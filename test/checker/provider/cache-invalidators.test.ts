/**
 * Every invalidator the API documents that the emulation can stage, one test each: the
 * cache is a chain (tools → system → messages), and a change loses its own level and
 * every level after it, while the levels before it are still read.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { beforeEach, describe, expect, it } from "vitest";
import { segmentTokens } from "./render.js";
import { clientFor, useProvider } from "./support.js";

let clock = 50_000_000;
const provider = useProvider({ now: () => clock });

const rules = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Rule ${i + 1} about ${topic}: answer in plain words and cite section ${i * 3}.`).join("\n");

/** Each level alone is over the 1,024-token minimum, so each breakpoint writes an entry of its own. */
const TOOL = {
  name: "lookup_rule",
  description: rules("tools", 80),
  input_schema: { type: "object" as const, properties: { n: { type: "integer" } } },
};
const SYSTEM = rules("conduct", 80);
const HISTORY = rules("the case file", 80);
const IMAGE: Anthropic.ImageBlockParam = {
  type: "image",
  source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==" },
};

const TOOLS_TOKENS = segmentTokens(JSON.stringify(TOOL));
const SYSTEM_TOKENS = segmentTokens(SYSTEM);
const HISTORY_TOKENS = segmentTokens(HISTORY);
const EVERYTHING = TOOLS_TOKENS + SYSTEM_TOKENS + HISTORY_TOKENS;

type Request = Anthropic.MessageCreateParamsNonStreaming & Record<string, unknown>;

/** Three cached levels, then a question after the last breakpoint. */
function request(question: string, change: (r: Request) => Request = (r) => r): Request {
  return change({
    model: "claude-sonnet-5",
    max_tokens: 256,
    tools: [{ ...TOOL, cache_control: { type: "ephemeral" } }],
    system: [{ type: "text", text: SYSTEM, cache_control: { type: "ephemeral" } }],
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: HISTORY, cache_control: { type: "ephemeral" } },
          { type: "text", text: question },
        ],
      },
    ],
  });
}

/** The request's last user message with `block` put first. */
const withBlockFirst =
  (block: Anthropic.ContentBlockParam) =>
  (r: Request): Request => {
    const [first] = r.messages;
    return { ...r, messages: [{ role: "user", content: [block, ...(first!.content as Anthropic.ContentBlockParam[])] }] };
  };

async function read(client: Anthropic, body: Request): Promise<number> {
  const message = await client.messages.create(body as Anthropic.MessageCreateParamsNonStreaming);
  return message.usage.cache_read_input_tokens ?? 0;
}

/** Warms the three entries, sends the changed request, then the original again. */
async function stage(change: (r: Request) => Request): Promise<{ changed: number; restored: number }> {
  const client = clientFor(provider());
  await read(client, request("warm"));
  expect(await read(client, request("baseline"))).toBe(EVERYTHING);
  const changed = await read(client, request("changed", change));
  const restored = await read(client, request("restored"));
  return { changed, restored };
}

beforeEach(() => {
  clock += 60 * 60_000;
});

describe("what invalidates the cache", () => {
  it("a clock in the system prompt: system and messages lost, tools still read", async () => {
    const stamped = (r: Request): Request => ({
      ...r,
      system: [{ type: "text", text: `Now: 2026-07-30T09:15:01Z\n${SYSTEM}`, cache_control: { type: "ephemeral" } }],
    });
    expect(await stage(stamped)).toEqual({ changed: TOOLS_TOKENS, restored: EVERYTHING });
  });

  it("a tool definition edited: everything lost", async () => {
    const edited = (r: Request): Request => ({
      ...r,
      tools: [{ ...TOOL, description: `${TOOL.description}\nNew rule.`, cache_control: { type: "ephemeral" } }],
    });
    expect(await stage(edited)).toEqual({ changed: 0, restored: EVERYTHING });
  });

  it("the same tool with its keys in another order: everything lost", async () => {
    const reordered = (r: Request): Request => ({
      ...r,
      tools: [{ input_schema: TOOL.input_schema, name: TOOL.name, description: TOOL.description, cache_control: { type: "ephemeral" } }],
    });
    expect(await stage(reordered)).toEqual({ changed: 0, restored: EVERYTHING });
  });

  it("another model: everything lost, since entries are kept per model", async () => {
    expect(await stage((r) => ({ ...r, model: "claude-haiku-4-5" }))).toEqual({ changed: 0, restored: EVERYTHING });
  });

  it("tool_choice changed: tools and system still read, messages lost", async () => {
    expect(await stage((r) => ({ ...r, tool_choice: { type: "any" } }))).toEqual({ changed: TOOLS_TOKENS + SYSTEM_TOKENS, restored: EVERYTHING });
  });

  it("an image added at the end of the prompt: the earlier messages are lost too", async () => {
    const withImage = (r: Request): Request => {
      const [first] = r.messages;
      return { ...r, messages: [{ role: "user", content: [...(first!.content as Anthropic.ContentBlockParam[]), IMAGE] }] };
    };
    expect(await stage(withImage)).toEqual({ changed: TOOLS_TOKENS + SYSTEM_TOKENS, restored: EVERYTHING });
  });

  it("thinking turned on: tools and system still read, messages lost", async () => {
    expect(await stage((r) => ({ ...r, thinking: { type: "enabled", budget_tokens: 2048 } }))).toEqual({
      changed: TOOLS_TOKENS + SYSTEM_TOKENS,
      restored: EVERYTHING,
    });
  });

  it("thinking given as disabled is the same prefix as no thinking at all", async () => {
    expect(await stage((r) => ({ ...r, thinking: { type: "disabled" } }))).toEqual({ changed: EVERYTHING, restored: EVERYTHING });
  });

  it("web search turned on: the tools before it still read, system and messages lost", async () => {
    const searching = (r: Request): Request => ({
      ...r,
      tools: [...r.tools!, { type: "web_search_20250305", name: "web_search" } as unknown as Anthropic.Tool],
    });
    expect(await stage(searching)).toEqual({ changed: TOOLS_TOKENS, restored: EVERYTHING });
  });

  it("citations turned on for a document: system and messages lost", async () => {
    const document = { type: "document", source: { type: "text", media_type: "text/plain", data: "The sky is blue." }, citations: { enabled: true } };
    const cited = withBlockFirst(document as Anthropic.DocumentBlockParam);
    const plain = withBlockFirst({ ...document, citations: { enabled: false } } as Anthropic.DocumentBlockParam);
    const client = clientFor(provider());
    await read(client, request("warm", plain));
    expect(await read(client, request("baseline", plain))).toBeGreaterThan(SYSTEM_TOKENS);
    // The document block itself changed too, so only the levels before it can be compared: tools.
    expect(await read(client, request("changed", cited))).toBe(TOOLS_TOKENS);
  });

  it('the speed setting switched to "fast": system and messages lost', async () => {
    expect(await stage((r) => ({ ...r, speed: "fast" }))).toEqual({ changed: TOOLS_TOKENS, restored: EVERYTHING });
  });
});
