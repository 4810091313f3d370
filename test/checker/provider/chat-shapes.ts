/**
 * The chat-completions reply shapes as a strict client reads them, written by hand from the
 * `openai` SDK's types: optional is not nullable, and unknown keys are refused.
 */
import { anyObject, array, int, literal, nullable, object, str, type Shape } from "./strict-shapes.js";

const FINISH = literal("stop", "length", "tool_calls", "content_filter", "function_call");
const SERVICE_TIER = nullable(literal("auto", "default", "flex", "scale", "priority"));

export const chatUsage = object(
  { completion_tokens: int, prompt_tokens: int, total_tokens: int },
  {
    completion_tokens_details: object({}, { accepted_prediction_tokens: int, audio_tokens: int, reasoning_tokens: int, rejected_prediction_tokens: int }),
    prompt_tokens_details: object({}, { audio_tokens: int, cached_tokens: int }),
  },
);

const toolCall = object({ id: str, type: literal("function"), function: object({ name: str, arguments: str }) });
const message = object(
  { content: nullable(str), refusal: nullable(str), role: literal("assistant") },
  { annotations: array(anyObject), audio: nullable(anyObject), function_call: nullable(anyObject), tool_calls: array(toolCall) },
);
const logprobs = nullable(object({ content: nullable(array(anyObject)), refusal: nullable(array(anyObject)) }));

/** A non-streaming reply. */
export const completion = object(
  { id: str, choices: array(object({ finish_reason: FINISH, index: int, logprobs, message })), created: int, model: str, object: literal("chat.completion") },
  { service_tier: SERVICE_TIER, system_fingerprint: str, usage: chatUsage, moderation: nullable(anyObject) },
);

const deltaToolCall = object({ index: int }, { id: str, type: literal("function"), function: object({}, { name: str, arguments: str }) });
const delta = object(
  {},
  {
    content: nullable(str),
    refusal: nullable(str),
    role: literal("developer", "system", "user", "assistant", "tool"),
    tool_calls: array(deltaToolCall),
    function_call: anyObject,
  },
);

/** One chunk of a streamed reply. */
export const chunk = object(
  {
    id: str,
    choices: array(object({ delta, finish_reason: nullable(FINISH), index: int }, { logprobs })),
    created: int,
    model: str,
    object: literal("chat.completion.chunk"),
  },
  { service_tier: SERVICE_TIER, system_fingerprint: str, usage: nullable(chatUsage), moderation: nullable(anyObject) },
);

/** The error body: exactly { error: { message, type, param, code } }. */
export const chatError: Shape = object({ error: object({ message: str, type: str, param: nullable(str), code: nullable(str) }) });

/** The JSON of each `data:` line of a chat stream, up to the closing [DONE], which must be last. */
export function chatChunks(text: string): { chunks: unknown[]; problems: string[] } {
  const frames = text.split("\n\n").filter((f) => f.trim() !== "");
  const problems: string[] = [];
  if (frames.at(-1) !== "data: [DONE]") problems.push(`the stream ends with ${JSON.stringify(frames.at(-1))}, not data: [DONE]`);
  const chunks = frames.slice(0, -1).map((frame, i) => {
    if (!frame.startsWith("data: ") || frame.includes("\n")) problems.push(`frame ${i} is not one data: line: ${frame.slice(0, 80)}`);
    return JSON.parse(frame.slice("data: ".length)) as unknown;
  });
  return { chunks, problems };
}
