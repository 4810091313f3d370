/**
 * The chat-completions wire translated into the Messages API's terms, both ways, so that one
 * scenario serves both: system and developer messages become the system prompt, a run of tool
 * messages becomes one user message of tool_result blocks (one turn's results, as the wire
 * means them), tool_calls become tool_use blocks; the reply comes back as a chat completion.
 */
import type { ResponseMessage } from "../reply.js";
import type { StopReason } from "../scenarios/types.js";
import type { ContentBlock, MessagesRequest, ToolDefinition, WireMessage } from "../wire.js";
import type { ChatMessage, ChatRequest } from "./request.js";

type Json = Record<string, unknown>;

/** A content part as the Messages API would hold it: text parts as text, anything else kept as it came. */
function partsOf(content: ChatMessage["content"]): ContentBlock[] {
  if (content === undefined || content === null) return [];
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  return content.map((part) => {
    if (part["type"] === "text") return { type: "text", text: part["text"] as string };
    if (part["type"] === "refusal") return { type: "text", text: part["refusal"] as string };
    return { ...part, type: String(part["type"]) };
  });
}

const textOf = (content: ChatMessage["content"]) =>
  partsOf(content)
    .map((b) => (b.type === "text" ? (b as { text: string }).text : ""))
    .join("");

/** The Messages request a scenario reads for this chat request. */
export function toMessagesRequest(chat: ChatRequest): MessagesRequest {
  const system: string[] = [];
  const messages: WireMessage[] = [];
  const push = (role: WireMessage["role"], blocks: ContentBlock[]) => {
    const last = messages.at(-1);
    // A run of tool and user messages is one user turn; consecutive assistant messages stay apart, as sent.
    if (role === "user" && last?.role === "user" && Array.isArray(last.content)) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const message of chat.messages) {
    if (message.role === "system" || message.role === "developer") system.push(textOf(message.content));
    else if (message.role === "tool") push("user", [{ type: "tool_result", tool_use_id: message.tool_call_id!, content: textOf(message.content) }]);
    else if (message.role === "user") push("user", partsOf(message.content));
    else {
      const calls: ContentBlock[] = (message.tool_calls ?? []).map((call) => ({
        type: "tool_use",
        id: call.id,
        name: call.function.name,
        input: JSON.parse(call.function.arguments) as Json,
      }));
      push("assistant", [...partsOf(message.content), ...calls]);
    }
  }
  const tools: ToolDefinition[] = chat.tools.map(({ function: fn }) => ({
    name: fn.name,
    ...(fn.description === undefined ? {} : { description: fn.description }),
    input_schema: fn.parameters ?? { type: "object", properties: {} },
  }));
  return {
    model: chat.model,
    max_tokens: chat.maxTokens,
    messages,
    ...(system.length > 0 ? { system: system.join("\n\n") } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(chat.stop.length > 0 ? { stop_sequences: chat.stop } : {}),
    stream: chat.stream,
  };
}

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter";

const FINISH: Record<StopReason, FinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  max_tokens: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};

export const finishReasonOf = (stop: StopReason): FinishReason => FINISH[stop];

/** `toolu_01…` becomes `call_…`, and `msg_01…` becomes `chatcmpl-…`, keeping the random part. */
export const callId = (toolUseId: string) => `call_${toolUseId.slice("toolu_01".length)}`;
export const completionId = (messageId: string) => `chatcmpl-${messageId.slice("msg_01".length)}`;

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: { reasoning_tokens: number; audio_tokens: number; accepted_prediction_tokens: number; rejected_prediction_tokens: number };
}

/** The whole prompt is prompt_tokens; what the prompt cache served is its cached_tokens. */
export function chatUsage(message: ResponseMessage): ChatUsage {
  const u = message.usage;
  const prompt = u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: u.output_tokens,
    total_tokens: prompt + u.output_tokens,
    prompt_tokens_details: { cached_tokens: u.cache_read_input_tokens, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}
