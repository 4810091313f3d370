/**
 * The Messages API's reply shapes as a strict client reads them, written by hand from the API
 * reference and the SDK's types: a field the API may leave out is optional, a field it sends as
 * null is nullable, and the two are not the same. Unknown keys are refused, so a field the API
 * never sends shows up too.
 */

/** Checks a value; returns where and why it does not fit, empty when it does. */
export type Shape = (value: unknown, path: string) => string[];

const kind = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

export const str: Shape = (v, p) => (typeof v === "string" ? [] : [`${p}: expected a string, got ${kind(v)}`]);
export const int: Shape = (v, p) => (Number.isInteger(v) && (v as number) >= 0 ? [] : [`${p}: expected a whole number, got ${JSON.stringify(v)}`]);
export const literal =
  (...values: unknown[]): Shape =>
  (v, p) =>
    values.includes(v) ? [] : [`${p}: expected one of ${values.map((x) => JSON.stringify(x)).join(", ")}, got ${JSON.stringify(v)}`];
export const nullable =
  (shape: Shape): Shape =>
  (v, p) =>
    v === null ? [] : shape(v, p);
export const array =
  (item: Shape): Shape =>
  (v, p) =>
    Array.isArray(v) ? v.flatMap((x, i) => item(x, `${p}[${i}]`)) : [`${p}: expected an array, got ${kind(v)}`];
export const anyObject: Shape = (v, p) => (kind(v) === "object" ? [] : [`${p}: expected an object, got ${kind(v)}`]);

/** An object with exactly these keys: every `required` one present, `optional` ones present or absent (never null unless the shape says so). */
export function object(required: Record<string, Shape>, optional: Record<string, Shape> = {}): Shape {
  return (v, p) => {
    if (kind(v) !== "object") return [`${p}: expected an object, got ${kind(v)}`];
    const record = v as Record<string, unknown>;
    const problems: string[] = [];
    for (const [key, shape] of Object.entries(required)) {
      if (!(key in record)) problems.push(`${p}.${key}: missing`);
      else problems.push(...shape(record[key], `${p}.${key}`));
    }
    for (const [key, shape] of Object.entries(optional)) {
      if (key in record) problems.push(...shape(record[key], `${p}.${key}`));
    }
    for (const key of Object.keys(record)) {
      if (!(key in required) && !(key in optional)) problems.push(`${p}.${key}: not a field of this shape`);
    }
    return problems;
  };
}

/** One of several object shapes, chosen by the value's `type`. */
export function byType(shapes: Record<string, Shape>): Shape {
  return (v, p) => {
    const type = kind(v) === "object" ? (v as { type?: unknown }).type : undefined;
    const shape = typeof type === "string" ? shapes[type] : undefined;
    return shape ? shape(v, p) : [`${p}.type: expected one of ${Object.keys(shapes).join(", ")}, got ${JSON.stringify(type)}`];
  };
}

const STOP_REASON = literal("end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn", "refusal", "model_context_window_exceeded");

const textBlock = object({ type: literal("text"), text: str }, { citations: array(anyObject) });
const toolUseBlock = object({ type: literal("tool_use"), id: str, name: str, input: anyObject }, { caller: object({ type: literal("direct") }) });
export const contentBlock = byType({ text: textBlock, tool_use: toolUseBlock });

const refusalDetails = object({
  type: literal("refusal"),
  category: nullable(literal("cyber", "bio", "frontier_llm", "reasoning_extraction", "general_harms")),
  explanation: nullable(str),
});

export const usage = object(
  { input_tokens: int, output_tokens: int },
  {
    cache_creation_input_tokens: nullable(int),
    cache_read_input_tokens: nullable(int),
    cache_creation: nullable(object({ ephemeral_5m_input_tokens: int, ephemeral_1h_input_tokens: int })),
    server_tool_use: nullable(anyObject),
    service_tier: nullable(literal("standard", "priority", "batch")),
    inference_geo: nullable(str),
  },
);

const messageFields = { id: str, type: literal("message"), role: literal("assistant"), model: str, stop_sequence: nullable(str), usage };
const messageOptional = { stop_details: nullable(refusalDetails), container: nullable(anyObject), diagnostics: nullable(anyObject) };

/** A non-streaming reply: stop_reason is always set. */
export const message = object({ ...messageFields, content: array(contentBlock), stop_reason: STOP_REASON }, messageOptional);

const emptyList: Shape = (v, p) => (Array.isArray(v) && v.length === 0 ? [] : [`${p}: expected [], got ${JSON.stringify(v)}`]);

/** The message inside message_start: no content yet, no stop_reason yet. */
const startedMessage = object({ ...messageFields, content: emptyList, stop_reason: literal(null) }, messageOptional);

const deltaUsage = object(
  { output_tokens: int },
  { input_tokens: nullable(int), cache_creation_input_tokens: nullable(int), cache_read_input_tokens: nullable(int), server_tool_use: nullable(anyObject) },
);

/** One server-sent event of a streaming reply, by its `type`. */
export const streamEvent = byType({
  message_start: object({ type: literal("message_start"), message: startedMessage }),
  content_block_start: object({ type: literal("content_block_start"), index: int, content_block: contentBlock }),
  content_block_delta: object({
    type: literal("content_block_delta"),
    index: int,
    delta: byType({
      text_delta: object({ type: literal("text_delta"), text: str }),
      input_json_delta: object({ type: literal("input_json_delta"), partial_json: str }),
    }),
  }),
  content_block_stop: object({ type: literal("content_block_stop"), index: int }),
  message_delta: object({
    type: literal("message_delta"),
    delta: object({ stop_reason: STOP_REASON, stop_sequence: nullable(str) }, { stop_details: nullable(refusalDetails) }),
    usage: deltaUsage,
  }),
  message_stop: object({ type: literal("message_stop") }),
  ping: object({ type: literal("ping") }),
});
