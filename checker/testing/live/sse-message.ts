/**
 * A streamed Messages API reply (its SSE text) folded back into the message it describes, the
 * way the SDK's stream helper does, so a live exchange reads like a scripted one: the content
 * blocks, the stop reason and the usage, input counts from message_start and the running
 * output count from the last message_delta.
 */

type Block = Record<string, unknown> & { type: string };

interface Folding {
  message: (Record<string, unknown> & { content: Block[]; usage?: Record<string, unknown> }) | null;
  /** The raw JSON of each tool_use block's input, as its deltas arrive. */
  json: Map<number, string>;
  error: unknown;
}

/** Every `data:` payload of an SSE text, parsed; lines that are not JSON are passed over. */
export function sseEvents(text: string): Array<Record<string, unknown>> {
  const events: Array<Record<string, unknown>> = [];
  for (const chunk of text.split(/\r?\n\r?\n/)) {
    const data = chunk
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    if (!data) continue;
    try {
      const event = JSON.parse(data) as unknown;
      if (event && typeof event === "object") events.push(event as Record<string, unknown>);
    } catch {
      // A keep-alive comment or a torn last event: nothing to fold.
    }
  }
  return events;
}

function fold(state: Folding, event: Record<string, unknown>): void {
  const index = Number(event["index"]);
  const block = state.message?.content[index];
  switch (event["type"]) {
    case "message_start":
      state.message = { ...(event["message"] as Folding["message"] & object), content: [] };
      return;
    case "content_block_start":
      state.message?.content.splice(index, 1, { ...(event["content_block"] as Block) });
      return;
    case "content_block_delta": {
      const delta = event["delta"] as Record<string, string>;
      if (!block) return;
      if (delta["type"] === "text_delta") block["text"] = `${String(block["text"] ?? "")}${delta["text"]}`;
      else if (delta["type"] === "input_json_delta") state.json.set(index, (state.json.get(index) ?? "") + delta["partial_json"]);
      else if (delta["type"] === "thinking_delta") block["thinking"] = `${String(block["thinking"] ?? "")}${delta["thinking"]}`;
      else if (delta["type"] === "signature_delta") block["signature"] = delta["signature"];
      return;
    }
    case "content_block_stop":
      if (block && state.json.has(index)) block["input"] = parseInput(state.json.get(index)!);
      return;
    case "message_delta":
      if (!state.message) return;
      Object.assign(state.message, event["delta"] as object);
      state.message.usage = { ...state.message.usage, ...withoutNulls(event["usage"]) };
      return;
    case "error":
      state.error = event["error"];
      return;
  }
}

function parseInput(json: string): unknown {
  if (json.trim() === "") return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/** A message_delta's usage repeats only what changed; its nulls must not erase message_start's counts. */
const withoutNulls = (usage: unknown) => Object.fromEntries(Object.entries((usage ?? {}) as object).filter(([, v]) => v !== null && v !== undefined));

/** The message an SSE body streamed (null when it never started), and the error event it ended with, if any. */
export function foldStream(text: string): { message: Record<string, unknown> | null; error: unknown } {
  const state: Folding = { message: null, json: new Map(), error: null };
  for (const event of sseEvents(text)) fold(state, event);
  return { message: state.message, error: state.error };
}
