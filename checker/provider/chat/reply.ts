/** A Messages reply written as a chat completion, or as that wire's stream of chunks ending in [DONE]. */
import type { ResponseMessage } from "../reply.js";
import { pieces, type Frame } from "../sse.js";
import { callId, chatUsage, completionId, finishReasonOf, type ChatUsage, type FinishReason } from "./translate.js";

export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    message: {
      role: "assistant";
      content: string | null;
      refusal: null;
      annotations: [];
      tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
    };
    logprobs: null;
    finish_reason: FinishReason;
  }>;
  usage: ChatUsage;
  service_tier: "default";
}

const textOf = (message: ResponseMessage) =>
  message.content.some((b) => b.type === "text") ? message.content.map((b) => (b.type === "text" ? b.text : "")).join("") : null;

const callsOf = (message: ResponseMessage) =>
  message.content.flatMap((b) =>
    b.type === "tool_use" ? [{ id: callId(b.id), type: "function" as const, function: { name: b.name, arguments: JSON.stringify(b.input) } }] : [],
  );

/** `created` is in seconds, from the provider's clock. */
export function toCompletion(message: ResponseMessage, created: number): ChatCompletion {
  const calls = callsOf(message);
  return {
    id: completionId(message.id),
    object: "chat.completion",
    created,
    model: message.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: textOf(message), refusal: null, annotations: [], ...(calls.length > 0 ? { tool_calls: calls } : {}) },
        logprobs: null,
        finish_reason: finishReasonOf(message.stop_reason),
      },
    ],
    usage: chatUsage(message),
    service_tier: "default",
  };
}

const data = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;

/**
 * The chunks of a streamed completion: the role first, then text pieces and each tool call
 * (its id and name, then its arguments in pieces), then finish_reason; with include_usage
 * every chunk carries `usage: null` and one last chunk with no choices carries the usage.
 */
export function chatFrames(message: ResponseMessage, created: number, includeUsage: boolean): Frame[] {
  const head = { id: completionId(message.id), object: "chat.completion.chunk", created, model: message.model, service_tier: "default" };
  const chunk = (delta: Record<string, unknown>, finish: FinishReason | null = null, chars = 0): Frame => ({
    data: data({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(includeUsage ? { usage: null } : {}) }),
    chars,
  });
  const frames: Frame[] = [chunk({ role: "assistant", content: "", refusal: null })];
  callsOf(message).forEach((call, index) => {
    frames.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }));
    for (const part of pieces(call.function.arguments, 16, 3))
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }, null, part.length));
  });
  // Text comes before the calls in a chunk stream, as the model writes it.
  const text = textOf(message) ?? "";
  frames.splice(1, 0, ...pieces(text, 24).map((part) => chunk({ content: part }, null, part.length)));
  frames.push(chunk({}, finishReasonOf(message.stop_reason)));
  if (includeUsage) frames.push({ data: data({ ...head, choices: [], usage: chatUsage(message) }), chars: 0 });
  frames.push({ data: "data: [DONE]\n\n", chars: 0 });
  return frames;
}
