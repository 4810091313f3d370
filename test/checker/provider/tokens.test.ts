/** Token counts: count_tokens, usage and an independent o200k_base count of the documented rendering agree. */
import type Anthropic from "@anthropic-ai/sdk";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { promptTokens, replyTokens } from "./render.js";
import { ask, clientFor, expectUsageAddsUp, MODEL, useProvider } from "./support.js";

const provider = useProvider();

const TOOLS: Anthropic.Tool[] = [
  {
    name: "get_weather",
    description: "Current weather for a city.",
    input_schema: { type: "object", properties: { city: { type: "string" }, day: { type: "string" } }, required: ["city"] },
  },
];

/** A finished tool round trip, with results as a string and as text parts, and a block of a type the provider does not know. */
const CONVERSATION: Anthropic.MessageParam[] = [
  { role: "user", content: "What is the weather in Paris and in Lima?" },
  {
    role: "assistant",
    content: [
      { type: "text", text: "Let me check both." },
      { type: "tool_use", id: "toolu_01AAAAAAAAAAAAAAAAAAAAAA", name: "get_weather", input: { city: "Paris" } },
      { type: "tool_use", id: "toolu_01BBBBBBBBBBBBBBBBBBBBBB", name: "get_weather", input: { city: "Lima", day: "today" } },
    ],
  },
  {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_01AAAAAAAAAAAAAAAAAAAAAA", content: "18 C, light rain" },
      {
        type: "tool_result",
        tool_use_id: "toolu_01BBBBBBBBBBBBBBBBBBBBBB",
        content: [
          { type: "text", text: "24 C" },
          { type: "text", text: "clear sky" },
        ],
      },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } } as never,
    ],
  },
];

const REQUESTS: Array<[string, Anthropic.MessageCreateParamsNonStreaming]> = [
  ["a one-line prompt", ask("How many tokens is this sentence?")],
  ["a system string and tools", { ...ask("Weather in Oslo?"), system: "You are terse.", tools: TOOLS }],
  [
    "system blocks with cache_control",
    {
      ...ask("hi"),
      system: [
        { type: "text", text: "Rules.", cache_control: { type: "ephemeral" } },
        { type: "text", text: "More rules." },
      ],
    },
  ],
  ["a tool round trip with an unknown block type", { model: MODEL, max_tokens: 512, tools: TOOLS, messages: CONVERSATION }],
  ["a 10,000-character run without spaces", ask(`see ${"abc123".repeat(1700)} end`)],
];

describe("input tokens", () => {
  it.each(REQUESTS)("count_tokens = input + cache write + cache read = the independent count, for %s", async (_name, request) => {
    const client = clientFor(provider(), "echo");
    const message = await client.messages.create(request);
    const total = await expectUsageAddsUp(client, request, message.usage);
    expect(total).toBeGreaterThan(0);
  });

  it("charges nothing for roles, tool ids or cache_control markers", async () => {
    const client = clientFor(provider(), "echo");
    const renamed = JSON.parse(JSON.stringify(CONVERSATION).replaceAll("toolu_01", "toolu_01_a_much_longer_identifier_"));
    const count = async (messages: Anthropic.MessageParam[], extra: object = {}) =>
      (await client.messages.countTokens({ model: MODEL, tools: TOOLS, messages, ...extra })).input_tokens;
    const plain = await count(CONVERSATION);
    expect(await count(renamed)).toBe(plain);
    expect(await count(CONVERSATION, { cache_control: { type: "ephemeral" } })).toBe(plain);
    expect(plain).toBe(promptTokens({ tools: TOOLS, messages: CONVERSATION }));
  });

  it("counts text that spells a special token of the tokenizer (<|endoftext|>) as plain text", async () => {
    const client = clientFor(provider(), "echo");
    const text = "Stop at <|endoftext|> or <|im_start|>, please.";
    const { input_tokens } = await client.messages.countTokens({ model: MODEL, messages: [{ role: "user", content: text }] });
    expect(input_tokens).toBe(encode(text, { disallowedSpecial: new Set() }).length);
    expect((await client.messages.create(ask(text))).usage.input_tokens).toBe(input_tokens);
  });
});

describe("output tokens", () => {
  it.each([
    ["echo", "Repeat this sentence back to me, please."],
    ["capital-weather", "What is the weather in the capital of Chile?"],
    ["weather", "Weather in three cities?"],
  ])("equal the independent count of the reply on %s", async (scenario, goal) => {
    const client = clientFor(provider(), scenario);
    const message = await client.messages.create(ask(goal));
    expect(message.usage.output_tokens).toBe(replyTokens(message.content));
    const streamed = await client.messages.stream(ask(goal)).finalMessage();
    expect(streamed.usage.output_tokens).toBe(message.usage.output_tokens);
  });
});
