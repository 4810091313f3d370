/** Turns a scenario's reply into the API's Message, enforcing stop_sequences and max_tokens. */
import { countTextFairly, firstTokens, Turns } from "./fair-count.js";
import type { CacheUsage } from "./prompt-cache.js";
import type { ReplyBlock, StopReason } from "./scenarios/types.js";
import { blockText } from "./tokens.js";
import { messageId, toolUseId } from "./ids.js";
import type { MessagesRequest } from "./wire.js";

export type ResponseBlock =
  // No citations field: the API sends one only on text that cites a document.
  { type: "text"; text: string } | { type: "tool_use"; id: string; caller: { type: "direct" }; name: string; input: Record<string, unknown> };

export interface Usage extends CacheUsage {
  output_tokens: number;
  service_tier: "standard";
}

export interface ResponseMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: ResponseBlock[];
  stop_reason: StopReason;
  stop_sequence: string | null;
  stop_details: { type: "refusal"; category: null; explanation: string | null } | null;
  usage: Usage;
}

interface Shaped {
  content: ResponseBlock[];
  stopReason: StopReason;
  stopSequence: string | null;
  outputTokens: number;
}

function materialise(blocks: ReplyBlock[], seed: string): ResponseBlock[] {
  return blocks.map((block, i) =>
    block.type === "text"
      ? { type: "text", text: block.text }
      : { type: "tool_use", id: toolUseId(`${seed}#${i}`), caller: { type: "direct" }, name: block.name, input: block.input },
  );
}

/** Cuts the reply at the first stop sequence found in its text. */
function applyStopSequences(content: ResponseBlock[], sequences: string[] | undefined) {
  if (!sequences?.length) return null;
  for (let i = 0; i < content.length; i++) {
    const block = content[i]!;
    if (block.type !== "text") continue;
    let best: { at: number; sequence: string } | null = null;
    for (const sequence of sequences) {
      const at = sequence === "" ? -1 : block.text.indexOf(sequence);
      if (at >= 0 && (!best || at < best.at)) best = { at, sequence };
    }
    if (best) {
      const cut: ResponseBlock[] = [...content.slice(0, i), { ...block, text: block.text.slice(0, best.at) }];
      return { content: cut, sequence: best.sequence };
    }
  }
  return null;
}

/** Cuts the reply after `limit` output tokens; a tool call that does not fit is dropped. Counts in turns. */
async function applyMaxTokens(content: ResponseBlock[], limit: number, turns: Turns) {
  const kept: ResponseBlock[] = [];
  let used = 0;
  for (const block of content) {
    const n = await countTextFairly(blockText(block), turns);
    if (used + n <= limit) {
      kept.push(block);
      used += n;
      continue;
    }
    if (block.type === "text") kept.push({ ...block, text: await firstTokens(block.text, limit - used, turns) });
    return { content: kept, truncated: true };
  }
  return { content: kept, truncated: false };
}

/** A cut at position 0 leaves an empty text block, which the API never sends. */
const withoutEmptyText = (content: ResponseBlock[]) => content.filter((b) => b.type !== "text" || b.text !== "");

async function shape(blocks: ReplyBlock[], stopReason: StopReason, request: MessagesRequest, seed: string): Promise<Shaped> {
  const turns = new Turns();
  let content = materialise(blocks, seed);
  let stopSequence: string | null = null;
  const stopped = applyStopSequences(content, request.stop_sequences);
  if (stopped) {
    content = stopped.content;
    stopSequence = stopped.sequence;
    stopReason = "stop_sequence";
  }
  const limited = await applyMaxTokens(content, request.max_tokens, turns);
  if (limited.truncated) {
    return { content: withoutEmptyText(limited.content), stopReason: "max_tokens", stopSequence: null, outputTokens: request.max_tokens };
  }
  content = withoutEmptyText(content);
  let outputTokens = 0;
  for (const block of content) outputTokens += await countTextFairly(blockText(block), turns);
  return { content, stopReason, stopSequence, outputTokens };
}

export async function buildMessage(
  reply: { content: ReplyBlock[]; stopReason?: StopReason },
  request: MessagesRequest,
  input: CacheUsage,
  seed: string,
): Promise<ResponseMessage> {
  const hasToolUse = reply.content.some((b) => b.type === "tool_use");
  const requested = reply.stopReason ?? (hasToolUse ? "tool_use" : "end_turn");
  const shaped = await shape(reply.content, requested, request, seed);
  return {
    id: messageId(),
    type: "message",
    role: "assistant",
    model: request.model,
    content: shaped.content,
    stop_reason: shaped.stopReason,
    stop_sequence: shaped.stopSequence,
    stop_details: shaped.stopReason === "refusal" ? { type: "refusal", category: null, explanation: null } : null,
    usage: { ...input, output_tokens: shaped.outputTokens, service_tier: "standard" },
  };
}
