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

/** One server-sent event as written, and how many characters of the reply's content it carries. */
export interface Frame {
  data: string;
  chars: number;
}

/** The Messages API's events for a message, each with the content characters its delta carries. */
export function messageFrames(message: ResponseMessage): Frame[] {
  return streamEvents(message).map((event) => {
    const delta = event.type === "content_block_delta" ? (event["delta"] as { text?: string; partial_json?: string }) : null;
    return { data: frame(event), chars: (delta?.text ?? delta?.partial_json ?? "").length };
  });
}

/** How a stream is paced: the reply's output tokens arrive `perTokenMs` apart, shared over the frames by their characters. */
export interface StreamPacing {
  outputTokens: number;
  perTokenMs: number;
  sleep: (ms: number) => Promise<void>;
}

/** Frames written between two chances for other requests to run. */
const BATCH = 256;

/**
 * Sends the frames as text/event-stream. Unpaced, a long reply goes in batches, taking turns;
 * paced, each frame with content is followed by its share of the tokens' time. With
 * `dropAfter`, the socket is destroyed after that many frames.
 */
export async function writeFrames(
  res: ServerResponse,
  frames: Frame[],
  headers: Record<string, string>,
  pacing: StreamPacing,
  dropAfter?: number,
): Promise<void> {
  res.writeHead(200, { ...headers, "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
  if (dropAfter !== undefined) {
    const sent = frames
      .slice(0, Math.min(dropAfter, frames.length - 1))
      .map((f) => f.data)
      .join("");
    // Cut only once the head and the first events are on the wire, or the client sees a drop before headers.
    res.write(sent, () => res.socket?.destroy());
    return;
  }
  const chars = frames.reduce((sum, f) => sum + f.chars, 0);
  const msPerChar = chars > 0 ? (pacing.outputTokens * pacing.perTokenMs) / chars : 0;
  const turns = new Turns();
  let owed = 0;
  for (let i = 0; i < frames.length; ) {
    if (res.destroyed) return;
    const batch = msPerChar > 0 ? frames.slice(i, i + 1) : frames.slice(i, i + BATCH);
    res.write(batch.map((f) => f.data).join(""));
    i += batch.length;
    owed += batch[0]!.chars * msPerChar;
    if (msPerChar === 0) await turns.take();
    else if (owed >= 1) {
      await pacing.sleep(owed);
      owed = 0;
    }
  }
  res.end();
}
