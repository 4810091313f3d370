/**
 * The chat-completions wire read by a strict client: every reply, every chunk and every error
 * fits the shapes of chat-shapes.ts exactly, and no bytes sent to it get anything else (seeded
 * mutations of a good body, truncations, bad UTF-8, deep nesting): a 4xx in the error shape or,
 * when the mutation was harmless, a completion.
 */
import { describe, expect, test } from "vitest";
import { CHAT_MESSAGES } from "../../../checker/provider/index.js";
import { chatChunks, chatError, chunk, completion } from "./chat-shapes.js";
import { prng } from "./fuzz-bodies.js";
import { MODEL, post, useProvider, type RawResponse } from "./support.js";

const provider = useProvider();
const BEARER = { authorization: "Bearer strict-key" };
const ask = (content: string, extra: Record<string, unknown> = {}) => ({ model: MODEL, messages: [{ role: "user", content }], ...extra });
const send = (scenario: string, body: unknown, headers: Record<string, string> = BEARER) =>
  post(provider(), `/s/${scenario}/v1/chat/completions`, typeof body === "string" ? body : JSON.stringify(body), headers);

const TOOLS = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }];

const CASES: Array<{ scenario: string; body: Record<string, unknown> }> = [
  { scenario: "echo", body: ask("say it back", { max_completion_tokens: 64, temperature: 1.5 }) },
  { scenario: "echo", body: ask("stop right here, please", { stop: "here" }) },
  { scenario: "capital-weather", body: ask("What is the weather in the capital of Peru?", { tools: TOOLS }) },
  { scenario: "weather", body: ask("Weather in Paris, Tokyo and Lima?", { tools: TOOLS }) },
  { scenario: "refusal", body: ask("Do the thing you will not do.") },
  { scenario: "truncated", body: ask("Write the whole report.", { max_tokens: 20 }) },
];

/** Why a response is neither a completion nor an error in the chat shape, or null. */
function problem(got: RawResponse): string | null {
  if (got.status === 200) return completion(got.json, "reply").join("; ") || null;
  if (got.status < 400 || got.status > 499) return `status ${got.status}: ${got.text.slice(0, 200)}`;
  const wrong = chatError(got.json, "error");
  if (wrong.length > 0) return wrong.join("; ");
  return /^req_[0-9a-f]{32}$/.test(got.headers.get("x-request-id") ?? "") ? null : `x-request-id ${got.headers.get("x-request-id")}`;
}

describe.each(CASES)("$scenario replies fit the chat shapes exactly", ({ scenario, body }) => {
  test("non-streaming", async () => {
    const got = await send(scenario, body);
    expect(got.status).toBe(200);
    expect(completion(got.json, "reply")).toEqual([]);
  });

  test("streaming, with and without include_usage", async () => {
    for (const include of [true, false]) {
      const got = await send(scenario, { ...body, stream: true, ...(include ? { stream_options: { include_usage: true } } : {}) });
      expect(got.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const { chunks, problems } = chatChunks(got.text);
      expect(problems).toEqual([]);
      expect(chunks.flatMap((c, i) => chunk(c, `chunk ${i}`))).toEqual([]);
      expect(chunks.some((c) => "usage" in (c as object))).toBe(include);
    }
  });
});

describe("refusals in that API's shape", () => {
  test.each([
    ["no key", ask("hi"), {}, 401, CHAT_MESSAGES.missingKey],
    ["bad JSON", '{"model": ', BEARER, 400, CHAT_MESSAGES.bodyNotJson],
    ["no messages", { model: MODEL }, BEARER, 400, CHAT_MESSAGES.missing("messages")],
    ["an empty list", { model: MODEL, messages: [] }, BEARER, 400, CHAT_MESSAGES.emptyArray("messages")],
    ["a robot", { model: MODEL, messages: [{ role: "robot", content: "hi" }] }, BEARER, 400, CHAT_MESSAGES.role("robot")],
    ["temperature 3", ask("hi", { temperature: 3 }), BEARER, 400, CHAT_MESSAGES.aboveMax("temperature", 2, 3, false)],
    ["max_tokens past the ceiling", ask("hi", { max_tokens: 200_000 }), BEARER, 400, CHAT_MESSAGES.tooManyTokens(200_000, 128_000)],
    ["stream_options without stream", ask("hi", { stream_options: { include_usage: true } }), BEARER, 400, CHAT_MESSAGES.streamOptions],
  ])("%s", async (_name, body, headers, status, message) => {
    const got = await send("echo", body, headers);
    expect(problem(got)).toBeNull();
    expect([got.status, (got.json as { error: { message: string } }).error.message]).toEqual([status, message]);
  });
});

/** A good body of every kind of message, tool call and tool result. */
function goodBody(stream: boolean): Record<string, any> {
  const body: Record<string, any> = ask("Weather in Paris?", { tools: TOOLS, max_tokens: 64, stream });
  body["messages"].push(
    { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] },
    { role: "tool", tool_call_id: "call_1", content: "18C" },
  );
  return body;
}

/** Every way to break one thing in the good body: each field removed, or given each value of another type. */
function brokenBodies(): string[] {
  const out: string[] = [];
  const values = [null, 0, -1, 1.5, 1e21, "", "x", [], {}, true, [1], { a: 1 }];
  const count = (value: any): number => (typeof value !== "object" || value === null ? 0 : Object.keys(value).reduce((n, k) => n + 1 + count(value[k]), 0));
  const total = count(goodBody(false));
  for (let target = 0; target < total; target++) {
    for (const replacement of [undefined, ...values]) {
      const body = goodBody(target % 3 === 0);
      let seen = 0;
      const visit = (value: any): boolean => {
        if (typeof value !== "object" || value === null) return false;
        for (const key of Object.keys(value)) {
          if (seen++ === target) {
            if (replacement === undefined && !Array.isArray(value)) delete value[key];
            else value[key] = replacement ?? null;
            return true;
          }
          if (visit(value[key])) return true;
        }
        return false;
      };
      visit(body);
      out.push(JSON.stringify(body));
    }
  }
  return out;
}

test("every field of a good body removed or retyped, cut short, nested deep or not UTF-8 gets a completion or a 4xx in the chat error shape, never a 500", async () => {
  const random = prng(20260611);
  const good = JSON.stringify(goodBody(false));
  const bodies: Array<string | Uint8Array> = [
    ...brokenBodies(),
    ...Array.from({ length: 20 }, () => good.slice(0, Math.floor(random() * good.length))),
    `${"[".repeat(200)}${"]".repeat(200)}`,
    new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
  ];
  expect(bodies.length).toBeGreaterThan(400);
  const wrong: string[] = [];
  const statuses = new Set<number>();
  for (const [i, body] of bodies.entries()) {
    const got = await post(provider(), "/s/weather/v1/chat/completions", body, BEARER);
    statuses.add(got.status);
    const streamed = got.headers.get("content-type")?.startsWith("text/event-stream");
    const why = streamed ? chatChunks(got.text).problems.join("; ") || null : problem(got);
    if (why) wrong.push(`#${i} ${String(body).slice(0, 120)}: ${why}`);
  }
  expect(wrong).toEqual([]);
  expect([...statuses].sort()).toEqual([200, 400, 404]);
}, 60_000);
