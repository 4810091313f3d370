/** Field validation, word for word: missing and ill-typed fields, bad JSON, bad bytes, size and context limits. */
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { startProvider } from "../../../checker/provider/index.js";
import { promptTokens } from "./render.js";
import { ask, clientFor, expectErrorResponse, MODEL, post, rejection, useProvider } from "./support.js";

const provider = useProvider();

type Body = Record<string, unknown>;
const base = (): Body => ask("hello");
const user = (content: unknown) => ({ role: "user", content });
const tool = (extra: Body = {}) => ({ name: "get_weather", input_schema: { type: "object" }, ...extra });
const without = (key: string): Body => Object.fromEntries(Object.entries(base()).filter(([k]) => k !== key));
const cc = (extra: Body = {}) => ({ type: "ephemeral", ...extra });

const CASES: Array<[string, Body | unknown, string]> = [
  ["no model", without("model"), "model: Field required"],
  ["a numeric model", { ...base(), model: 42 }, "model: Input should be a valid string"],
  ["no max_tokens", without("max_tokens"), "max_tokens: Field required"],
  ["a string max_tokens", { ...base(), max_tokens: "10" }, "max_tokens: Input should be a valid integer"],
  ["a fractional max_tokens", { ...base(), max_tokens: 1.5 }, "max_tokens: Input should be a valid integer"],
  ["max_tokens 0", { ...base(), max_tokens: 0 }, "max_tokens: Input should be greater than or equal to 1"],
  ["no messages", without("messages"), "messages: Field required"],
  ["messages as an object", { ...base(), messages: {} }, "messages: Input should be a valid list"],
  ["no messages at all", { ...base(), messages: [] }, "messages: at least one message is required"],
  ["a message that is a string", { ...base(), messages: ["hi"] }, "messages.0: Input should be a valid dictionary"],
  ["a system role in messages", { ...base(), messages: [{ role: "system", content: "x" }] }, "messages.0.role: Input should be 'user' or 'assistant'"],
  ["a message without role", { ...base(), messages: [{ content: "x" }] }, "messages.0.role: Field required"],
  ["a message without content", { ...base(), messages: [{ role: "user" }] }, "messages.0.content: Field required"],
  ["numeric content", { ...base(), messages: [user(5)] }, "messages.0.content: Input should be a valid string"],
  ["an assistant first", { ...base(), messages: [{ role: "assistant", content: "x" }] }, 'messages: first message must use the "user" role'],
  ["a block without type", { ...base(), messages: [user([{ text: "x" }])] }, "messages.0.content.0.type: Field required"],
  ["a text block with numeric text", { ...base(), messages: [user([{ type: "text", text: 1 }])] }, "messages.0.content.0.text: Input should be a valid string"],
  [
    "a tool_use without input",
    { ...base(), messages: [user("x"), { role: "assistant", content: [{ type: "tool_use", id: "t", name: "n" }] }] },
    "messages.1.content.0.input: Field required",
  ],
  [
    "a tool_result without tool_use_id",
    { ...base(), messages: [user([{ type: "tool_result", content: "x" }])] },
    "messages.0.content.0.tool_use_id: Field required",
  ],
  ["a numeric system", { ...base(), system: 5 }, "system: Input should be a valid string"],
  ["a system block that is not text", { ...base(), system: [{ type: "image" }] }, "system.0.type: Input should be 'text'"],
  ["tools as a string", { ...base(), tools: "get_weather" }, "tools: Input should be a valid list"],
  ["a tool without name", { ...base(), tools: [{ input_schema: {} }] }, "tools.0.name: Field required"],
  ["a tool name with a space", { ...base(), tools: [tool({ name: "get weather" })] }, "tools.0.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"],
  ["two tools of one name", { ...base(), tools: [tool(), tool()] }, "tools: Tool names must be unique. Found duplicate: get_weather"],
  ["a tool without input_schema", { ...base(), tools: [{ name: "t" }] }, "tools.0.input_schema: Field required"],
  [
    "a cache_control of another type",
    { ...base(), system: [{ type: "text", text: "s", cache_control: { type: "persistent" } }] },
    "system.0.cache_control.type: Input should be 'ephemeral'",
  ],
  ["a cache_control ttl of 2h", { ...base(), cache_control: cc({ ttl: "2h" }) }, "cache_control.ttl: Input should be '5m' or '1h'"],
  ["a string stream", { ...base(), stream: "yes" }, "stream: Input should be a valid boolean"],
  ["a string temperature", { ...base(), temperature: "hot" }, "temperature: Input should be a valid number"],
  ["stop_sequences as a string", { ...base(), stop_sequences: "END" }, "stop_sequences: Input should be a valid list"],
  ["a JSON array body", [base()], "The request body must be a JSON object."],
  [
    "five cache_control blocks",
    { ...base(), system: [1, 2, 3, 4, 5].map((n) => ({ type: "text", text: `part ${n}`, cache_control: cc() })) },
    "A maximum of 4 blocks with cache_control may be provided. Found 5.",
  ],
];

describe("field validation", () => {
  it.each(CASES)("rejects %s with the exact message", async (_name, body, message) => {
    expectErrorResponse(await post(provider(), "/s/echo/v1/messages", JSON.stringify(body)), 400, message);
  });

  it("reaches the SDK as a BadRequestError carrying the same message", async () => {
    const err = await rejection(clientFor(provider()).messages.create({ model: MODEL, messages: [{ role: "user", content: "x" }] } as never));
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(err.error.error.message).toBe("max_tokens: Field required");
  });

  it("does not ask count_tokens for max_tokens, but checks the rest", async () => {
    expect((await post(provider(), "/s/echo/v1/messages/count_tokens", JSON.stringify(without("max_tokens")))).status).toBe(200);
    expectErrorResponse(await post(provider(), "/s/echo/v1/messages/count_tokens", JSON.stringify(without("model"))), 400, "model: Field required");
  });

  it("ignores unknown fields", async () => {
    const response = await post(provider(), "/s/echo/v1/messages", JSON.stringify({ ...base(), metadata: { user_id: "u" }, brand_new_field: [1] }));
    expect(response.status).toBe(200);
  });
});

describe("bodies that are not JSON", () => {
  it("rejects bad JSON, quoting the parser", async () => {
    const detail = (() => {
      try {
        JSON.parse('{"model": ');
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expectErrorResponse(await post(provider(), "/s/echo/v1/messages", '{"model": '), 400, `The request body is not valid JSON: ${detail}`);
  });

  it("rejects nesting past 128 levels anywhere in the body, and records the body as text", async () => {
    const nest = (levels: number) => '{"a":'.repeat(levels - 1) + "1" + "}".repeat(levels - 1);
    // The body is level 1 and metadata level 2, so nest(n) makes a body n levels deep.
    const at = (levels: number) => JSON.stringify({ ...base(), metadata: "@" }).replace('"@"', nest(levels));
    expect((await post(provider(), "/s/echo/v1/messages", at(128))).status).toBe(200);
    expectErrorResponse(await post(provider(), "/s/echo/v1/messages", at(129)), 400, "The request body nests deeper than 128 levels.");
    expect(provider().requests.at(-1)!.body).toBe(at(129));
  });

  it("rejects bytes that are not UTF-8", async () => {
    const body = Buffer.concat([Buffer.from('{"model":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    expectErrorResponse(await post(provider(), "/s/echo/v1/messages", body), 400, "The request body is not valid UTF-8.");
  });
});

describe("limits", () => {
  it("answers an oversized body with 413 request_too_large, which the SDK raises as ContentTooLargeError", async () => {
    const small = await startProvider({ maxBodyBytes: 1024 });
    try {
      const big = JSON.stringify(ask("x".repeat(2000)));
      expectErrorResponse(await post(small, "/s/echo/v1/messages", big), 413, "Request exceeds the maximum allowed size of 1024 bytes.");
      const err = await rejection(clientFor(small).messages.create(ask("y".repeat(2000))));
      expect(err).toBeInstanceOf(Anthropic.ContentTooLargeError);
      expect((await clientFor(small).messages.create(ask("fits"))).stop_reason).toBe("end_turn");
    } finally {
      await small.close();
    }
  });

  it("rejects a prompt over the context limit with its size, on messages and on count_tokens", async () => {
    const tight = await startProvider({ maxContextTokens: 50 });
    try {
      const request = ask("Tell me about the weather in Paris, Tokyo and Lima. ".repeat(8));
      const message = `prompt is too long: ${promptTokens(request)} tokens > 50 maximum`;
      expectErrorResponse(await post(tight, "/s/echo/v1/messages", JSON.stringify(request)), 400, message);
      expectErrorResponse(await post(tight, "/s/echo/v1/messages/count_tokens", JSON.stringify(request)), 400, message);
      expect((await clientFor(tight).messages.create(ask("short"))).stop_reason).toBe("end_turn");
    } finally {
      await tight.close();
    }
  });

  it("sizes a prompt of millions of characters, counted only in part, to within 1%", async () => {
    const request = ask("the quick brown fox jumps over the lazy dog ".repeat(120_000));
    const response = await post(provider(), "/s/echo/v1/messages", JSON.stringify(request));
    const reported = Number(/^prompt is too long: (\d+) tokens > 200000 maximum$/.exec((response.json as any).error.message)?.[1]);
    expect(Math.abs(reported / promptTokens(request) - 1)).toBeLessThan(0.01);
  });
});
