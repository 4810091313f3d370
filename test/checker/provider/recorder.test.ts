/**
 * One provider recording another: the recorder sits between the unmodified SDKs (Anthropic's
 * and OpenAI's) and a scripted provider, and the cassette it writes is replayed by a second
 * provider. The same conversations against the replay get identical replies, streamed ones
 * included; a request nobody recorded gets a 404 naming the closest recording; the key the
 * clients sent is nowhere in the file.
 */
import Anthropic from "@anthropic-ai/sdk";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Cassette, CASSETTE_MESSAGES, RECORDER_MESSAGES, startProvider, startRecorder, type Provider } from "../../../checker/provider/index.js";
import { tempDir } from "../../support/temp-dir.js";
import { MODEL, notErrorShape, post } from "./support.js";

const KEY = `sk-ant-lab-${randomBytes(16).toString("hex")}`;
const dir = tempDir("cassette");
const file = join(dir, "cassette.jsonl");
let upstream: Provider;
let replay: Provider;
const recorded: { anthropic?: Conversation; openai?: Conversation } = {};

const TOOL: Anthropic.Tool = {
  name: "get_weather",
  description: "Weather for a city",
  input_schema: { type: "object", properties: { city: { type: "string" } } },
};
const FORECAST: Record<string, string> = { Paris: "18C, sun", Tokyo: "22C, cloud", Lima: "16C, mist" };
const GOAL = "Weather in Paris, Tokyo and Lima, today and tomorrow?";

interface Conversation {
  replies: unknown[];
  events: unknown[];
  final: unknown;
  refused: { status: number | undefined; error: unknown; requestId: string | null | undefined };
}

/** The weather loop, a streamed reply and a refused request through the Anthropic SDK. */
async function anthropicConversation(baseURL: string, apiKey: string): Promise<Conversation> {
  const client = new Anthropic({ baseURL, apiKey, maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: GOAL }];
  const replies: Anthropic.Message[] = [];
  for (let turn = 0; turn < 6; turn++) {
    const reply = await client.messages.create({ model: MODEL, max_tokens: 1024, tools: [TOOL], messages });
    replies.push(reply);
    if (reply.stop_reason !== "tool_use") break;
    messages.push({ role: "assistant", content: reply.content });
    const results = reply.content.flatMap((b) =>
      b.type === "tool_use" ? [{ type: "tool_result" as const, tool_use_id: b.id, content: FORECAST[(b.input as { city: string }).city]! }] : [],
    );
    messages.push({ role: "user", content: results });
  }
  const stream = client.messages.stream({ model: MODEL, max_tokens: 1024, tools: [TOOL], messages: [{ role: "user", content: GOAL }] });
  const events: unknown[] = [];
  stream.on("streamEvent", (e) => events.push(e));
  const final = await stream.finalMessage();
  const err = await client.messages
    .create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_nobody", content: "x" }] }] })
    .catch((e: InstanceType<typeof Anthropic.APIError>) => e);
  return {
    replies,
    events,
    final,
    refused: {
      status: (err as InstanceType<typeof Anthropic.APIError>).status,
      error: (err as InstanceType<typeof Anthropic.APIError>).error,
      requestId: (err as InstanceType<typeof Anthropic.APIError>).requestID,
    },
  };
}

/** The same through the OpenAI SDK on the chat-completions wire. */
async function openaiConversation(baseURL: string, apiKey: string): Promise<Conversation> {
  const client = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey, maxRetries: 0 });
  const tools: OpenAI.ChatCompletionTool[] = [{ type: "function", function: { name: TOOL.name, parameters: TOOL.input_schema as Record<string, unknown> } }];
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: GOAL }];
  const replies: OpenAI.ChatCompletion[] = [];
  for (let turn = 0; turn < 6; turn++) {
    const reply = await client.chat.completions.create({ model: MODEL, tools, messages });
    replies.push(reply);
    const message = reply.choices[0]!.message;
    if (reply.choices[0]!.finish_reason !== "tool_calls") break;
    messages.push(message);
    for (const call of message.tool_calls ?? [])
      if (call.type === "function")
        messages.push({ role: "tool", tool_call_id: call.id, content: FORECAST[(JSON.parse(call.function.arguments) as { city: string }).city]! });
  }
  const stream = client.chat.completions.stream({
    model: MODEL,
    tools,
    messages: [{ role: "user", content: GOAL }],
    stream: true,
    stream_options: { include_usage: true },
  });
  const events: unknown[] = [];
  stream.on("chunk", (c) => events.push(c));
  const final = await stream.finalChatCompletion();
  const err = await client.chat.completions
    .create({ model: MODEL, messages: [{ role: "tool", tool_call_id: "call_nobody", content: "x" }] })
    .catch((e: InstanceType<typeof OpenAI.APIError>) => e);
  const bad = err as InstanceType<typeof OpenAI.APIError>;
  return { replies, events, final, refused: { status: bad.status, error: bad.error, requestId: bad.requestID } };
}

beforeAll(async () => {
  upstream = await startProvider();
  const recorder = await startRecorder({ upstream: upstream.url("weather"), out: file });
  try {
    recorded.anthropic = await anthropicConversation(recorder.origin, KEY);
    recorded.openai = await openaiConversation(recorder.origin, KEY);
  } finally {
    await recorder.close();
  }
  replay = await startProvider({ cassette: Cassette.read(file, "cassette.jsonl") });
});
afterAll(async () => {
  await upstream?.close();
  await replay?.close();
});

describe("a cassette recorded from one provider", () => {
  test("the recorder passed the upstream's answers through: the conversations ran to their end", () => {
    expect((recorded.anthropic!.replies.at(-1) as Anthropic.Message).content[0]).toMatchObject({ text: expect.stringContaining("Lima: 16C, mist today") });
    expect((recorded.openai!.replies.at(-1) as OpenAI.ChatCompletion).choices[0]!.message.content).toContain("Lima: 16C, mist today");
    expect(recorded.anthropic!.refused.status).toBe(400);
    // What the clients got is what the upstream sent: the same request ids, in the upstream's own log.
    const ids = new Set(upstream.requests.map((r) => r.requestId));
    expect(ids.has(recorded.anthropic!.refused.requestId!)).toBe(true);
    expect(ids.has(recorded.openai!.refused.requestId!)).toBe(true);
  });

  test("holds no trace of the key: not the key, not the bearer token, no authorization or x-api-key header", () => {
    const text = readFileSync(file, "utf8");
    expect(text.split("\n").filter(Boolean).length).toBe(upstream.requests.length);
    expect(text.includes(KEY)).toBe(false);
    expect(text.includes(KEY.slice(0, 20))).toBe(false);
    expect(/authorization|x-api-key/i.test(text)).toBe(false);
  });

  test("a key pasted into a message is cut from the file, while the client still gets the upstream's answer unchanged", async () => {
    const echoFile = join(dir, "echo.jsonl");
    const recorder = await startRecorder({ upstream: upstream.url("echo"), out: echoFile });
    try {
      const client = new Anthropic({ baseURL: recorder.origin, apiKey: KEY, maxRetries: 0 });
      const reply = await client.messages.create({ model: MODEL, max_tokens: 256, messages: [{ role: "user", content: `my key is "${KEY}"` }] });
      expect(reply.content[0]).toEqual({ type: "text", text: `You said: my key is "${KEY}"` });
    } finally {
      await recorder.close();
    }
    const text = readFileSync(echoFile, "utf8");
    expect(text.includes(KEY)).toBe(false);
    expect(text.split(RECORDER_MESSAGES.redacted).length - 1).toBe(2);
  });

  test("replays into the unmodified Anthropic SDK with identical replies, the stream and the refusal included", async () => {
    const again = await anthropicConversation(replay.origin, "another-key-entirely");
    expect(again).toEqual(recorded.anthropic);
  });

  test("replays into the unmodified OpenAI SDK with identical replies, the stream and the refusal included", async () => {
    const again = await openaiConversation(replay.origin, "another-key-entirely");
    expect(again).toEqual(recorded.openai);
  });

  test("matches on content, not on order: a later turn asked first still gets its own reply", async () => {
    const cassette = Cassette.read(file);
    const third = cassette.exchanges.find((x) => JSON.stringify(x.request).includes("tool_result") && !x.chunks)!;
    const got = await post(replay, "/v1/messages", JSON.stringify(third.request), { "x-api-key": "k", "anthropic-version": "2023-06-01" });
    expect(got.status).toBe(200);
    expect(got.text).toBe(third.body);
  });

  test("a request nobody recorded is a 404 in the API's shape naming the closest recording and where it differs", async () => {
    const cassette = Cassette.read(file, "cassette.jsonl");
    const index = cassette.exchanges.findIndex((x) => JSON.stringify(x.request).includes("tool_result") && !x.chunks && x.path === "/v1/messages");
    const body = structuredClone(cassette.exchanges[index]!.request) as { messages: Array<{ content: Array<{ content?: string }> }> };
    body.messages[2]!.content[0]!.content = "-40C, blizzard";
    const got = await post(replay, "/v1/messages", JSON.stringify(body), { "x-api-key": "k", "anthropic-version": "2023-06-01" });
    expect(notErrorShape(got)).toBeNull();
    const recordedText = (cassette.exchanges[index]!.request as typeof body).messages[2]!.content[0]!.content;
    expect([got.status, (got.json as { error: { message: string } }).error.message]).toEqual([
      404,
      CASSETTE_MESSAGES.closest(
        "cassette.jsonl",
        index + 1,
        "POST",
        "/v1/messages",
        "messages.2.content.0.content",
        JSON.stringify(recordedText),
        '"-40C, blizzard"',
      ),
    ]);

    const chat = await post(replay, "/v1/chat/completions", JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "never asked" }] }), {
      authorization: "Bearer k",
    });
    expect(chat.status).toBe(404);
    expect((chat.json as { error: { message: string; code: string } }).error).toMatchObject({
      code: "no_recorded_match",
      message: expect.stringMatching(
        /^No recorded exchange matches this request\. The closest is exchange \d+ of cassette\.jsonl \(POST \/v1\/chat\/completions\)/,
      ),
    });
  });

  test("a replay validates like every scenario: a bad request is refused in the API's words before any matching", async () => {
    const got = await post(replay, "/v1/messages", JSON.stringify({ model: MODEL, max_tokens: 0, messages: [{ role: "user", content: "hi" }] }), {
      "x-api-key": "k",
      "anthropic-version": "2023-06-01",
    });
    expect([got.status, (got.json as { error: { message: string } }).error.message]).toEqual([400, "max_tokens: Input should be greater than or equal to 1"]);
    const noKey = await post(replay, "/v1/messages", JSON.stringify({ model: MODEL, max_tokens: 8, messages: [{ role: "user", content: "hi" }] }), {
      "anthropic-version": "2023-06-01",
    });
    expect(noKey.status).toBe(401);
  });
});

test("streams pass through chunk by chunk: the first delta reaches the client while the upstream is still writing", { timeout: 5_000 }, async () => {
  const pending: Array<() => void> = [];
  const paced = await startProvider({ perTokenMs: 50, sleep: () => new Promise<void>((resolve) => pending.push(resolve)) });
  const recorder = await startRecorder({ upstream: paced.url("echo"), out: join(dir, "paced.jsonl") });
  try {
    const response = await fetch(`${recorder.origin}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": KEY, "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({
        model: MODEL,
        max_tokens: 256,
        stream: true,
        messages: [{ role: "user", content: "one two three four five six seven eight nine ten" }],
      }),
    });
    const reader = response.body!.getReader();
    let text = "";
    while (!text.includes("text_delta")) text += new TextDecoder().decode((await reader.read()).value);
    // The upstream is held in its first pause after that delta: nothing after it can have been sent yet.
    expect(pending.length).toBe(1);
    expect(text).not.toContain("message_stop");
    while (!text.includes("message_stop")) {
      while (pending.length > 0) pending.shift()!();
      const next = await reader.read();
      if (next.done) break;
      text += new TextDecoder().decode(next.value);
    }
    expect(text).toContain("message_stop");
  } finally {
    while (pending.length > 0) pending.shift()!();
    await recorder.close();
    await paced.close();
  }
  const [line] = readFileSync(join(dir, "paced.jsonl"), "utf8").trim().split("\n");
  expect((JSON.parse(line!) as { chunks: string[] }).chunks.length).toBeGreaterThan(2);
});

test("an upstream nobody answers at is a 502 in the API's shape naming it, not a hang or a crash", async () => {
  const closed = await startProvider();
  const gone = closed.url("echo");
  await closed.close();
  const recorder = await startRecorder({ upstream: gone, out: join(dir, "nothing.jsonl") });
  try {
    const got = await post(
      recorder as unknown as Provider,
      "/v1/messages",
      JSON.stringify({ model: MODEL, max_tokens: 8, messages: [{ role: "user", content: "hi" }] }),
    );
    expect(got.status).toBe(502);
    expect(notErrorShape(got)).toBeNull();
    expect((got.json as { error: { message: string } }).error.message).toMatch(
      new RegExp(`^${RECORDER_MESSAGES.unreachable(gone, "").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}`),
    );
  } finally {
    await recorder.close();
  }
});

test("equal requests get their recordings in turn: a recorded 429 replays before its 200, and the SDK's retry rides it out again", async () => {
  const faultsFile = join(dir, "faults.jsonl");
  const recorder = await startRecorder({ upstream: upstream.url("rate-limited", { faults: 1, retryAfterMs: 1 }), out: faultsFile });
  const ask = (baseURL: string) =>
    new Anthropic({ baseURL, apiKey: KEY, maxRetries: 1 }).messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "again" }] });
  let first: Anthropic.Message;
  try {
    first = await ask(recorder.origin);
  } finally {
    await recorder.close();
  }
  const faulty = await startProvider({ cassette: Cassette.read(faultsFile) });
  try {
    expect(await ask(faulty.origin)).toEqual(first);
    expect(faulty.requests.map((r) => [r.status, r.replayed])).toEqual([
      [429, 1],
      [200, 2],
    ]);
  } finally {
    await faulty.close();
  }
});
