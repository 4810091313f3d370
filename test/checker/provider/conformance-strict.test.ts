/**
 * Replies read by a strict client: every non-streaming reply and every streamed event fits the
 * API's documented shapes exactly (strict-shapes.ts), so a client that validates with a schema
 * (optional is not nullable, unknown keys refused) accepts what the provider sends.
 */
import { describe, expect, test } from "vitest";
import { message, streamEvent } from "./strict-shapes.js";
import { ask, post, useProvider } from "./support.js";

const provider = useProvider();

const CASES: Array<{ scenario: string; body: Record<string, unknown> }> = [
  { scenario: "echo", body: ask("say it back") },
  { scenario: "echo", body: ask("stop right here, please", { stop_sequences: ["here"] }) },
  { scenario: "capital-weather", body: ask("What is the weather in the capital of Peru?") },
  { scenario: "weather", body: ask("Weather in Paris, Tokyo and Lima?") },
  { scenario: "growing", body: ask("Read the report and take notes.") },
  { scenario: "refusal", body: ask("Do the thing you will not do.") },
  { scenario: "truncated", body: ask("Write the whole report.", { max_tokens: 20 }) },
];

/** The events of a server-sent event stream, each checked against its `event:` line. */
function events(text: string): unknown[] {
  return text
    .split("\n\n")
    .filter((frame) => frame.trim() !== "")
    .map((frame) => {
      const name = /^event: (.*)$/m.exec(frame)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(frame)![1]!) as { type: string };
      expect(data.type, "the event: line names the data's type").toBe(name);
      return data;
    });
}

describe("strict shapes", () => {
  test("refuse what a strict client refuses: a null where a field is only optional, an unknown key, a missing field", () => {
    const reply = {
      id: "msg_01",
      type: "message",
      role: "assistant",
      model: "m",
      content: [{ type: "text", text: "hi", citations: null, extra: 1 }],
      stop_reason: "end_turn",
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    expect(message(reply, "reply")).toEqual([
      "reply.stop_sequence: missing",
      "reply.content[0].citations: expected an array, got null",
      "reply.content[0].extra: not a field of this shape",
    ]);
  });
});

describe.each(CASES)("$scenario replies fit the documented shapes exactly", ({ scenario, body }) => {
  test("non-streaming", async () => {
    const response = await post(provider(), `/s/${scenario}/v1/messages`, JSON.stringify(body));

    expect(response.status).toBe(200);
    expect(message(response.json, "reply")).toEqual([]);
  });

  test("streaming", async () => {
    const response = await post(provider(), `/s/${scenario}/v1/messages`, JSON.stringify({ ...body, stream: true }));

    expect(response.status).toBe(200);
    const stream = events(response.text);
    expect(stream.length).toBeGreaterThan(3);
    expect(stream.flatMap((event, i) => streamEvent(event, `event ${i}`))).toEqual([]);
  });
});
