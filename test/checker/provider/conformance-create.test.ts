/** messages.create through the unmodified SDK: text, one tool call, three parallel calls, ids, usage, auth. */
import Anthropic from "@anthropic-ai/sdk";
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { ask, clientFor, FULL_USAGE, ID, MODEL, post, useProvider } from "./support.js";

const provider = useProvider();

describe("messages.create", () => {
  it("answers echo with one text block, end_turn, a msg_01 id and the full usage object", async () => {
    const client = clientFor(provider(), "echo");
    const { data, response, request_id } = await client.messages.create(ask("hello there")).withResponse();
    expect(data).toEqual({
      id: expect.stringMatching(ID.message),
      type: "message",
      role: "assistant",
      model: MODEL,
      content: [{ type: "text", text: "You said: hello there" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      stop_details: null,
      usage: FULL_USAGE,
    });
    expect(response.status).toBe(200);
    expect(request_id).toMatch(ID.request);
  });

  it("asks for get_capital once on the first turn of capital-weather", async () => {
    const client = clientFor(provider(), "capital-weather");
    const message = await client.messages.create(ask("What is the weather in the capital of Japan?"));
    expect(message.stop_reason).toBe("tool_use");
    expect(message.content).toEqual([
      { type: "tool_use", id: expect.stringMatching(ID.toolUse), caller: { type: "direct" }, name: "get_capital", input: { country: "Japan" } },
    ]);
    expect(message.usage).toEqual(FULL_USAGE);
  });

  it("asks for get_weather in Paris, Tokyo and Lima in parallel on the first turn of weather", async () => {
    const client = clientFor(provider(), "weather");
    const message = await client.messages.create(ask("How is the weather?"));
    expect(message.stop_reason).toBe("tool_use");
    const uses = message.content as Anthropic.ToolUseBlock[];
    expect(uses.map((b) => [b.type, b.name, b.input])).toEqual([
      ["tool_use", "get_weather", { city: "Paris", day: "today" }],
      ["tool_use", "get_weather", { city: "Tokyo", day: "today" }],
      ["tool_use", "get_weather", { city: "Lima", day: "today" }],
    ]);
    for (const use of uses) expect(use.id).toMatch(ID.toolUse);
    expect(new Set(uses.map((b) => b.id)).size).toBe(3);
  });

  it("gives the same request the same tool ids and every reply a new message id", async () => {
    const client = clientFor(provider(), "weather");
    const first = await client.messages.create(ask("Weather, please."));
    const second = await client.messages.create(ask("Weather, please."));
    const other = await client.messages.create(ask("Weather, please!"));
    const ids = (m: Anthropic.Message) => m.content.map((b) => (b as Anthropic.ToolUseBlock).id);
    expect(ids(second)).toEqual(ids(first));
    expect(ids(other)).not.toEqual(ids(first));
    expect(second.id).not.toBe(first.id);
  });

  it("answers count_tokens with input_tokens only, and a request-id", async () => {
    const client = clientFor(provider(), "echo");
    const { data, request_id } = await client.messages.countTokens({ model: MODEL, messages: [{ role: "user", content: "count me" }] }).withResponse();
    expect(data).toEqual({ input_tokens: expect.any(Number) });
    expect(data.input_tokens).toBeGreaterThan(0);
    expect(request_id).toMatch(ID.request);
  });
});

describe("authentication", () => {
  it("accepts the SDK's apiKey (sent as a Bearer token) and records the key", async () => {
    const client = new Anthropic({ baseURL: provider().url("echo"), apiKey: "key-as-bearer", maxRetries: 0 });
    await client.messages.create(ask("hi"));
    expect(provider().requests.at(-1)).toMatchObject({ apiKey: "key-as-bearer", status: 200 });
  });

  it("accepts authToken", async () => {
    const client = new Anthropic({ baseURL: provider().url("echo"), authToken: "a-token", maxRetries: 0 });
    await client.messages.create(ask("hi"));
    expect(provider().requests.at(-1)).toMatchObject({ apiKey: "a-token", status: 200 });
  });

  it("accepts a raw x-api-key header", async () => {
    const response = await post(provider(), "/s/echo/v1/messages", JSON.stringify(ask("raw")), {
      "x-api-key": "raw-header-key",
      "anthropic-version": "2023-06-01",
    });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ content: [{ type: "text", text: "You said: raw" }] });
    expect(provider().requests.at(-1)).toMatchObject({ apiKey: "raw-header-key", scenario: "echo", endpoint: "messages" });
  });
});

describe("recording", () => {
  it("records each exchange with its scenario, options, body, status and usage", async () => {
    const client = clientFor(provider(), "rate-limited", { options: { faults: 0 } });
    const message = await client.messages.create(ask("record me"));
    const exchange = provider().requests.at(-1)!;
    expect(exchange).toMatchObject({
      endpoint: "messages",
      scenario: "rate-limited",
      options: { faults: "0" },
      status: 200,
      outcome: "message",
      stream: false,
      body: ask("record me"),
      usage: message.usage,
      attempt: 1,
    });
    expect(exchange.requestId).toMatch(ID.request);
  });
});

describe("recording order", () => {
  const headers = (body: string) => ({
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    "x-api-key": "order",
    "anthropic-version": "2023-06-01",
  });
  /** A request on a connection of its own; resolves with its status once the answer is read. */
  function open(body: string) {
    const req = request(`${provider().origin}/s/echo/v1/messages`, { method: "POST", headers: headers(body), agent: false });
    const done = new Promise<number>((resolve, reject) => {
      req.on("response", (res) => res.resume().on("end", () => resolve(res.statusCode!)));
      req.on("error", reject);
    });
    return { req, done };
  }

  it("keeps exchanges in arrival order when an earlier request finishes later", async () => {
    const slowBody = JSON.stringify(ask("slow upload"));
    const quickBody = JSON.stringify(ask("quick"));
    const before = provider().requests.length;
    const slow = open(slowBody);
    await new Promise<void>((resolve) => slow.req.write(slowBody.slice(0, 20), () => resolve()));
    const quick = open(quickBody);
    quick.req.end(quickBody);
    expect(await quick.done).toBe(200);
    slow.req.end(slowBody.slice(20));
    expect(await slow.done).toBe(200);
    const seqs = provider()
      .requests.slice(before)
      .map((e) => e.seq);
    // The slow request arrived first, so it holds the lower seq; it must be listed first although it finished last.
    expect(seqs).toHaveLength(2);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });
});
