/** Writes a Message as the API's server-sent events, in the real order. */
import type { ServerResponse } from "node:http";
import { Turns } from "./fair-count.js";
import type { ResponseBlock, ResponseMessage } from "./reply.js";

type Event = { type: string; [key: string]: unknown };

const frame = (event: Event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** Splits a string into pieces of about `size` characters (at least `minPieces` when long enough). */
export function pieces(value: string, size: number, minPieces = 1): string[] {
  const step = Math.max(1, Math.min(size, Math.ceil(value.length / minPieces)));
  const out: string[] = [];
  for (let i = 0; i < value.length; i += step) out.push(value.slice(i, i + step));
  return out;
}

function blockEvents(block: ResponseBlock, index: number): Event[] {
  if (block.type === "text") {
    return [
      { type: "content_block_start", index, content_block: { type: "text", text: "" } },
      ...pieces(block.text, 24).map((text) => ({ type: "content_block_delta", index, delta: { type: "text_delta", text } })),
      { type: "content_block_stop", index },
    ];
  }
  const json = JSON.stringify(block.input);
  return [
    { type: "content_block_start", index, content_block: { ...block, input: {} } },
    { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: "" } },
    ...pieces(json, 16, 3).map((partial_json) => ({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } })),
    { type: "content_block_stop", index },
  ];
}

/** The whole event sequence for a message; `message_start` carries the input usage and content: []. */
export function streamEvents(message: ResponseMessage): Event[] {
  const { usage } = message;
  const events: Event[] = [
    {
      type: "message_start",
      message: { ...message, content: [], stop_reason: null, stop_sequence: null, stop_details: null, usage: { ...usage, output_tokens: 1 } },
    },
    { type: "ping" },
  ];
  message.content.forEach((block, index) => {
    events.push(...blockEvents(block, index));
    if (index % 2 === 1) events.push({ type: "ping" });
  });
  events.push(
    {
      type: "message_delta",
      delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence, stop_details: message.stop_details },
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: usage.output_tokens,
      },
    },
    { type: "message_stop" },
  );
  return events;
}

/** Events written between two chances for other requests to run. */
const BATCH = 256;

/** Sends the events (a long reply in batches, taking turns); with `dropAfter`, the socket is destroyed after that many. */
export async function writeStream(res: ServerResponse, message: ResponseMessage, headers: Record<string, string>, dropAfter?: number): Promise<void> {
  res.writeHead(200, { ...headers, "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
  const events = streamEvents(message);
  if (dropAfter === undefined) {
    const turns = new Turns();
    for (let i = 0; i < events.length; i += BATCH) {
      if (res.destroyed) return;
      res.write(
        events
          .slice(i, i + BATCH)
          .map(frame)
          .join(""),
      );
      await turns.take();
    }
    res.end();
    return;
  }
  const sent = events
    .slice(0, Math.min(dropAfter, events.length - 1))
    .map(frame)
    .join("");
  // Cut only once the head and the first events are on the wire, or the client sees a drop before headers.
  res.write(sent, () => res.socket?.destroy());
}
