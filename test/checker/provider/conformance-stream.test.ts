/** Streaming through the unmodified SDK: the real event order, split tool JSON, finalMessage, raw SSE framing. */
import type Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { ask, clientFor, FULL_USAGE, ID, post, useProvider } from "./support.js";

const provider = useProvider();

const CASES = [
  { scenario: "echo", goal: "stream this back", blocks: ["text"] },
  { scenario: "capital-weather", goal: "What is the weather in the capital of Peru?", blocks: ["tool_use"] },
  { scenario: "weather", goal: "Weather in three cities?", blocks: ["tool_use", "tool_use", "tool_use"] },
] as const;

type Event = Anthropic.MessageStreamEvent;

/** message_start → per block start / deltas / stop → message_delta → message_stop, nothing else. */
function expectEventOrder(events: Event[], blocks: readonly string[]): void {
  expect(events[0]).toMatchObject({ type: "message_start", message: { id: expect.stringMatching(ID.message), content: [], usage: FULL_USAGE } });
  let i = 1;
  blocks.forEach((kind, index) => {
    expect(events[i++]).toMatchObject({ type: "content_block_start", index, content_block: { type: kind } });
    const deltas = events.slice(i).findIndex((e) => e.type !== "content_block_delta");
    expect(deltas).toBeGreaterThan(0);
    for (const event of events.slice(i, i + deltas)) {
      expect(event).toMatchObject({ index, delta: { type: kind === "text" ? "text_delta" : "input_json_delta" } });
    }
    i += deltas;
    expect(events[i++]).toEqual({ type: "content_block_stop", index });
  });
  expect(events[i++]).toMatchObject({ type: "message_delta", delta: { stop_reason: blocks[0] === "text" ? "end_turn" : "tool_use" } });
  expect(events[i++]).toEqual({ type: "message_stop" });
  expect(events).toHaveLength(i);
}

/** The pieces of each tool call's input JSON, by block index. */
function jsonPieces(events: Event[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const e of events) {
    if (e.type === "content_block_delta" && e.delta.type === "input_json_delta") out.set(e.index, [...(out.get(e.index) ?? []), e.delta.partial_json]);
  }
  return out;
}

/** What create and a stream can differ in: the message id, and the SDK's own parsed_output. */
function modIds(message: Anthropic.Message): unknown {
  const { id: _id, parsed_output: _parsed, ...rest } = message as Anthropic.Message & { parsed_output?: unknown };
  return rest;
}

describe.each(CASES)("streaming $scenario", ({ scenario, goal, blocks }) => {
  it("yields the real event order from create({ stream: true })", async () => {
    const client = clientFor(provider(), scenario);
    const events: Event[] = [];
    for await (const event of await client.messages.create({ ...ask(goal), stream: true })) events.push(event);
    expectEventOrder(events, blocks);
    const delta = events.at(-2) as Anthropic.MessageDeltaEvent;
    expect(delta.usage.output_tokens).toBeGreaterThan(1);
  });

  it("yields the same order when iterating messages.stream() with for await", async () => {
    const client = clientFor(provider(), scenario);
    const events: Event[] = [];
    // The SDK goes on mutating message_start's message into its snapshot, so keep a copy as it arrived.
    for await (const event of client.messages.stream(ask(goal))) events.push(structuredClone(event));
    expectEventOrder(events, blocks);
  });

  it("resolves finalMessage() to what create returns, modulo ids", async () => {
    const client = clientFor(provider(), scenario);
    const created = await client.messages.create(ask(goal));
    const streamed = await client.messages.stream(ask(goal)).finalMessage();
    expect(streamed.id).toMatch(ID.message);
    expect(modIds(streamed)).toEqual(modIds(created));
  });
});

describe("streamed tool input", () => {
  it("splits every tool call's JSON over several non-empty input_json_delta pieces that join to the input", async () => {
    const client = clientFor(provider(), "weather");
    const created = await client.messages.create(ask("Weather in three cities?"));
    const events: Event[] = [];
    for await (const event of await client.messages.create({ ...ask("Weather in three cities?"), stream: true })) events.push(event);
    const pieces = jsonPieces(events);
    expect([...pieces.keys()]).toEqual([0, 1, 2]);
    for (const [index, parts] of pieces) {
      expect(parts.filter((p) => p !== "").length).toBeGreaterThanOrEqual(2);
      expect(JSON.parse(parts.join(""))).toEqual((created.content[index] as Anthropic.ToolUseBlock).input);
    }
  });
});

describe("stream framing on the wire", () => {
  it("sends text/event-stream whose every frame has an event: line equal to its data type, pings included", async () => {
    const response = await post(provider(), "/s/weather/v1/messages", JSON.stringify({ ...ask("raw stream"), stream: true }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("request-id")).toMatch(ID.request);
    const frames = response.text.split("\n\n").filter(Boolean);
    const types = frames.map((frame) => {
      const [eventLine, dataLine, ...rest] = frame.split("\n");
      expect(rest).toEqual([]);
      const type = /^event: (\S+)$/.exec(eventLine!)?.[1];
      expect(JSON.parse(dataLine!.replace(/^data: /, "")).type).toBe(type);
      return type;
    });
    expect(types).toContain("ping");
    expect(types[0]).toBe("message_start");
    expect(types.at(-1)).toBe("message_stop");
  });

  it("exposes the request-id of a stream through withResponse()", async () => {
    const stream = clientFor(provider(), "echo").messages.stream(ask("id please"));
    const { request_id } = await stream.withResponse();
    await stream.finalMessage();
    expect(request_id).toMatch(ID.request);
    expect(provider().requests.at(-1)).toMatchObject({ requestId: request_id, stream: true, outcome: "message" });
  });
});
