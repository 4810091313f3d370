/**
 * The chat-completions wire, driven by the official `openai` SDK, unmodified: a tool loop on the
 * weather scenario (written once, for both wires), a streamed reply with its usage, a refused
 * request in that API's error shape, and retries on its own fault headers.
 */
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import { CHAT_MESSAGES, type Provider } from "../../../checker/provider/index.js";
import { chatError, chunk as chunkShape, completion as completionShape } from "./chat-shapes.js";
import { freshKey, MODEL, useProvider } from "./support.js";

const provider = useProvider();

function openai(p: Provider, scenario: string, opts: { options?: Record<string, string | number>; maxRetries?: number } = {}): OpenAI {
  return new OpenAI({ baseURL: `${p.url(scenario, opts.options ?? {})}/v1`, apiKey: freshKey(), maxRetries: opts.maxRetries ?? 0 });
}

const WEATHER_TOOL: OpenAI.ChatCompletionTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Weather for a city on a day",
    parameters: { type: "object", properties: { city: { type: "string" }, day: { type: "string" } } },
  },
};

const FORECAST: Record<string, string> = { Paris: "18C, sun", Tokyo: "22C, cloud", Lima: "16C, mist" };

describe("the openai SDK on /v1/chat/completions", () => {
  test("runs the weather tool loop: parallel tool_calls, answered by role tool messages, a stop with the answer", async () => {
    const client = openai(provider(), "weather");
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Paris, Tokyo and Lima, today and tomorrow?" }];
    const replies: OpenAI.ChatCompletion[] = [];
    for (let turn = 0; turn < 10; turn++) {
      const reply = await client.chat.completions.create({ model: MODEL, messages, tools: [WEATHER_TOOL] });
      replies.push(reply);
      const choice = reply.choices[0]!;
      if (choice.finish_reason !== "tool_calls") break;
      messages.push(choice.message);
      for (const call of choice.message.tool_calls ?? []) {
        if (call.type !== "function") throw new Error(`unexpected ${call.type}`);
        const { city } = JSON.parse(call.function.arguments) as { city: string };
        messages.push({ role: "tool", tool_call_id: call.id, content: FORECAST[city]! });
      }
    }

    for (const reply of replies) expect(completionShape(reply, "reply")).toEqual([]);
    const last = replies.at(-1)!.choices[0]!;
    expect(last.finish_reason).toBe("stop");
    expect(last.message.content).toContain("Lima: 16C, mist today, 16C, mist tomorrow.");
    // One turn's results sent as a run of tool messages are one turn: the three cities stay parallel.
    const asked = replies.slice(0, -1).map((r) => r.choices[0]!.message.tool_calls!.length);
    expect(asked.every((n) => n === 3)).toBe(true);
    for (const reply of replies) {
      const u = reply.usage!;
      expect(u.total_tokens).toBe(u.prompt_tokens + u.completion_tokens);
      expect(u.prompt_tokens).toBeGreaterThan(0);
    }
    // Each turn resends the transcript, so the prompt grows.
    const prompts = replies.map((r) => r.usage!.prompt_tokens);
    expect(prompts).toEqual([...prompts].sort((a, b) => a - b));
  });

  test("streams the weather reply in chunks that add up to the non-streamed completion: three parallel calls, then include_usage's last chunk", async () => {
    const p = provider();
    const client = openai(p, "weather");
    const params = { model: MODEL, messages: [{ role: "user" as const, content: "Weather in Paris, Tokyo and Lima?" }], tools: [WEATHER_TOOL] };
    const whole = await client.chat.completions.create(params);
    const stream = client.chat.completions.stream({ ...params, stream: true, stream_options: { include_usage: true } });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    stream.on("chunk", (c) => chunks.push(c));
    const streamed = await stream.finalChatCompletion();

    expect(chunks.length).toBeGreaterThan(3);
    for (const [i, c] of chunks.entries()) expect(chunkShape(c, `chunk ${i}`)).toEqual([]);
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage).toEqual(whole.usage);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    // Each call's arguments arrive in several pieces, told apart by the call's index.
    const pieces = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).filter((t) => t.function?.arguments);
    expect(new Set(pieces.map((t) => t.index))).toEqual(new Set([0, 1, 2]));
    expect(pieces.length).toBeGreaterThan(3);
    expect(streamed.choices[0]!.finish_reason).toBe("tool_calls");
    expect(streamed.choices[0]!.message.tool_calls).toEqual(whole.choices[0]!.message.tool_calls);
    expect(streamed.choices[0]!.message.tool_calls!.map((c) => (c.type === "function" ? JSON.parse(c.function.arguments) : null))).toEqual([
      { city: "Paris", day: "today" },
      { city: "Tokyo", day: "today" },
      { city: "Lima", day: "today" },
    ]);
  });

  test("a tool message that answers no call is refused with that API's 400, its error body and its request id", async () => {
    const client = openai(provider(), "weather");
    const err = await client.chat.completions
      .create({
        model: MODEL,
        messages: [
          { role: "user", content: "Weather in Paris?" },
          { role: "tool", tool_call_id: "call_nobody", content: "18C" },
        ],
      })
      .then(
        () => null,
        (e: unknown) => e,
      );

    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    const bad = err as InstanceType<typeof OpenAI.BadRequestError>;
    expect(bad.status).toBe(400);
    expect(bad.error).toEqual({ message: CHAT_MESSAGES.toolWithoutCall, type: "invalid_request_error", param: "messages.[1].role", code: null });
    expect(chatError({ error: bad.error }, "body")).toEqual([]);
    expect(bad.requestID).toMatch(/^req_[0-9a-f]{32}$/);
    expect(provider().requests.at(-1)!.requestId).toBe(bad.requestID);
  });

  test("an unknown model is that API's 404 model_not_found; a call left unanswered is its 400 naming the id", async () => {
    const client = openai(provider(), "echo");
    const missing = await client.chat.completions.create({ model: "gpt-4", messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as InstanceType<typeof OpenAI.APIError>).error).toEqual({
      message: CHAT_MESSAGES.modelNotFound("gpt-4"),
      type: "invalid_request_error",
      param: null,
      code: "model_not_found",
    });

    const unanswered = await client.chat.completions
      .create({
        model: MODEL,
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: null, tool_calls: [{ id: "call_a", type: "function", function: { name: "f", arguments: "{}" } }] },
          { role: "user", content: "well?" },
        ],
      })
      .catch((e: unknown) => e);
    expect((unanswered as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      message: CHAT_MESSAGES.callWithoutResult(["call_a"]),
      param: "messages.[1].role",
    });
  });

  test("rides out rate-limited with the SDK's own retries, reading retry-after-ms from the 429", async () => {
    const p = provider();
    const client = openai(p, "rate-limited", { options: { faults: 2, retryAfterMs: 1 }, maxRetries: 2 });
    const reply = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "count me" }] });
    expect(reply.choices[0]!.message.content).toBe("Done: count me");
    const apiKey = p.requests.at(-1)!.apiKey;
    const seen = p.requests.filter((r) => r.apiKey === apiKey);
    expect(seen.map((r) => r.status)).toEqual([429, 429, 200]);
    expect(seen[0]!.response).toEqual({ error: { message: expect.any(String), type: "requests", param: null, code: "rate_limit_exceeded" } });
  });
});
