/**
 * The chat-completions request, checked with that API's own wording (its field paths, its
 * `param` and `code`), before it is translated into the Messages request every scenario reads.
 */
import { ApiError } from "../errors.js";
import { MAX_MODEL_NAME, type ModelSpec } from "../models.js";

type Json = Record<string, unknown>;

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content?: string | Json[] | null;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
}

export interface ChatTool {
  type: "function";
  function: { name: string; description?: string; parameters?: Json };
}

/** A checked request: the fields the provider reads, with max_tokens settled. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools: ChatTool[];
  maxTokens: number;
  stream: boolean;
  includeUsage: boolean;
  stop: string[];
}

const ROLES = ["system", "assistant", "user", "function", "tool", "developer"];
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const kind = (v: unknown) =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "an array"
      : typeof v === "object"
        ? "an object"
        : typeof v === "string"
          ? "a string"
          : Number.isInteger(v)
            ? "an integer"
            : typeof v === "number"
              ? "a decimal"
              : `a ${typeof v}`;
const quote = (v: unknown) => {
  const text = typeof v === "string" ? v : (JSON.stringify(v) ?? String(v));
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
};

/** The API's sentences, word for word where it has one. */
export const CHAT_MESSAGES = {
  missingKey:
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
  bodyNotJson: "We could not parse the JSON body of your request. The API expects a JSON payload, but what was sent was not valid JSON.",
  bodyNotObject: "Invalid type for the request body: expected an object.",
  missing: (param: string) => `Missing required parameter: '${param}'.`,
  type: (param: string, expected: string, got: unknown) => `Invalid type for '${param}': expected ${expected}, but got ${kind(got)} instead.`,
  emptyArray: (param: string) => `Invalid '${param}': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
  role: (role: unknown) => `Invalid value: '${quote(role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
  belowMin: (param: string, min: number, got: number, integer: boolean) =>
    `Invalid '${param}': ${integer ? "integer" : "decimal"} below minimum value. Expected a value >= ${min}, but got ${got} instead.`,
  aboveMax: (param: string, max: number, got: number, integer: boolean) =>
    `Invalid '${param}': ${integer ? "integer" : "decimal"} above maximum value. Expected a value <= ${max}, but got ${got} instead.`,
  toolName: (param: string) => `Invalid '${param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
  arguments: (param: string) => `Invalid '${param}': the arguments of a tool call must be a JSON object, as the model wrote them.`,
  modelNotFound: (model: string) => `The model \`${quote(model)}\` does not exist or you do not have access to it.`,
  tooManyTokens: (n: number, ceiling: number) =>
    `max_tokens is too large: ${n}. This model supports at most ${ceiling} completion tokens, whereas you provided ${n}.`,
  onlyOneChoice: "Invalid 'n': the scripted provider writes one choice per request; send n: 1 or leave it out.",
  streamOptions: "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
  toolChoiceWithoutTools: "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
  toolWithoutCall: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
  callWithoutResult: (ids: string[]) =>
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${ids.join(", ")}`,
  contextLength: (tokens: number, max: number) =>
    `This model's maximum context length is ${max} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
} as const;

const bad = (message: string, param: string | null, code: string | null, status = 400) =>
  new ApiError(status, message, { ...(param === null ? {} : { param }), ...(code === null ? {} : { code }) });

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function required(body: Json, key: string, param: string): unknown {
  if (body[key] === undefined || body[key] === null) throw bad(CHAT_MESSAGES.missing(param), param, "missing_required_parameter");
  return body[key];
}

function expectString(value: unknown, param: string): string {
  if (typeof value !== "string") throw bad(CHAT_MESSAGES.type(param, "a string", value), param, "invalid_type");
  return value;
}

function number(body: Json, key: string, range: { min: number; max?: number; integer: boolean }): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  const ok = typeof value === "number" && Number.isFinite(value) && (!range.integer || Number.isSafeInteger(value));
  if (!ok) throw bad(CHAT_MESSAGES.type(key, range.integer ? "an integer" : "a number", value), key, "invalid_type");
  const n = value as number;
  if (n < range.min)
    throw bad(CHAT_MESSAGES.belowMin(key, range.min, n, range.integer), key, range.integer ? "integer_below_min_value" : "decimal_below_min_value");
  if (range.max !== undefined && n > range.max)
    throw bad(CHAT_MESSAGES.aboveMax(key, range.max, n, range.integer), key, range.integer ? "integer_above_max_value" : "decimal_above_max_value");
  return n;
}

/** String content, or an array of parts (text parts carry a string `text`). */
function checkContent(value: unknown, param: string, optional: boolean): void {
  if (value === undefined || value === null) {
    if (!optional) throw bad(CHAT_MESSAGES.missing(param), param, "missing_required_parameter");
    return;
  }
  if (typeof value === "string") return;
  if (!Array.isArray(value)) throw bad(CHAT_MESSAGES.type(param, "one of a string or array of objects", value), param, "invalid_type");
  value.forEach((part, i) => {
    const at = `${param}[${i}]`;
    if (!isObject(part)) throw bad(CHAT_MESSAGES.type(at, "an object", part), at, "invalid_type");
    expectString(required(part, "type", `${at}.type`), `${at}.type`);
    if (part["type"] === "text" || part["type"] === "refusal")
      expectString(required(part, part["type"] === "text" ? "text" : "refusal", `${at}.${part["type"]}`), `${at}.${part["type"]}`);
  });
}

function checkToolCalls(value: unknown, param: string): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) throw bad(CHAT_MESSAGES.type(param, "an array", value), param, "invalid_type");
  value.forEach((call, i) => {
    const at = `${param}[${i}]`;
    if (!isObject(call)) throw bad(CHAT_MESSAGES.type(at, "an object", call), at, "invalid_type");
    expectString(required(call, "id", `${at}.id`), `${at}.id`);
    const fn = required(call, "function", `${at}.function`);
    if (!isObject(fn)) throw bad(CHAT_MESSAGES.type(`${at}.function`, "an object", fn), `${at}.function`, "invalid_type");
    expectString(required(fn, "name", `${at}.function.name`), `${at}.function.name`);
    const args = expectString(required(fn, "arguments", `${at}.function.arguments`), `${at}.function.arguments`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch {
      parsed = null;
    }
    if (!isObject(parsed)) throw bad(CHAT_MESSAGES.arguments(`${at}.function.arguments`), `${at}.function.arguments`, "invalid_value");
  });
}

function checkMessages(value: unknown): ChatMessage[] {
  if (value === undefined || value === null) throw bad(CHAT_MESSAGES.missing("messages"), "messages", "missing_required_parameter");
  if (!Array.isArray(value)) throw bad(CHAT_MESSAGES.type("messages", "an array", value), "messages", "invalid_type");
  if (value.length === 0) throw bad(CHAT_MESSAGES.emptyArray("messages"), "messages", "empty_array");
  value.forEach((message, n) => {
    const at = `messages[${n}]`;
    if (!isObject(message)) throw bad(CHAT_MESSAGES.type(at, "an object", message), at, "invalid_type");
    const role = required(message, "role", `${at}.role`);
    if (typeof role !== "string" || !ROLES.includes(role) || role === "function") throw bad(CHAT_MESSAGES.role(role), `${at}.role`, "invalid_value");
    checkContent(message["content"], `${at}.content`, role === "assistant");
    if (role === "assistant") checkToolCalls(message["tool_calls"], `${at}.tool_calls`);
    if (role === "tool") expectString(required(message, "tool_call_id", `${at}.tool_call_id`), `${at}.tool_call_id`);
  });
  return value as ChatMessage[];
}

function checkTools(value: unknown): ChatTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw bad(CHAT_MESSAGES.type("tools", "an array", value), "tools", "invalid_type");
  value.forEach((tool, i) => {
    const at = `tools[${i}]`;
    if (!isObject(tool)) throw bad(CHAT_MESSAGES.type(at, "an object", tool), at, "invalid_type");
    const fn = required(tool, "function", `${at}.function`);
    if (!isObject(fn)) throw bad(CHAT_MESSAGES.type(`${at}.function`, "an object", fn), `${at}.function`, "invalid_type");
    const name = expectString(required(fn, "name", `${at}.function.name`), `${at}.function.name`);
    if (!TOOL_NAME.test(name)) throw bad(CHAT_MESSAGES.toolName(`${at}.function.name`), `${at}.function.name`, "invalid_value");
    if (fn["parameters"] !== undefined && !isObject(fn["parameters"]))
      throw bad(CHAT_MESSAGES.type(`${at}.function.parameters`, "an object", fn["parameters"]), `${at}.function.parameters`, "invalid_type");
  });
  return value as ChatTool[];
}

/** Every tool message answers a call of the assistant message before its run of tool messages; every call is answered. */
function checkPairing(messages: ChatMessage[]): void {
  let open: { at: number; ids: Set<string> } | null = null;
  const close = () => {
    if (open && open.ids.size > 0) throw bad(CHAT_MESSAGES.callWithoutResult([...open.ids]), `messages.[${open.at}].role`, null);
    open = null;
  };
  messages.forEach((message, n) => {
    if (message.role === "tool") {
      if (!open?.ids.delete(message.tool_call_id!)) throw bad(CHAT_MESSAGES.toolWithoutCall, `messages.[${n}].role`, null);
      return;
    }
    close();
    if (message.role === "assistant" && message.tool_calls?.length) open = { at: n, ids: new Set(message.tool_calls.map((c) => c.id)) };
  });
  close();
}

/** Checks a chat-completions body against the models served; throws an ApiError in that API's words. */
export function validateChatRequest(body: unknown, models: Readonly<Record<string, ModelSpec>>): ChatRequest {
  if (!isObject(body)) throw bad(CHAT_MESSAGES.bodyNotObject, null, "invalid_type");
  const model = expectString(required(body, "model", "model"), "model");
  const messages = checkMessages(body["messages"]);
  const tools = checkTools(body["tools"]);
  if (body["tool_choice"] !== undefined && body["tool_choice"] !== null && body["tool_choice"] !== "none" && tools.length === 0)
    throw bad(CHAT_MESSAGES.toolChoiceWithoutTools, "tool_choice", null);
  number(body, "temperature", { min: 0, max: 2, integer: false });
  number(body, "top_p", { min: 0, max: 1, integer: false });
  const n = number(body, "n", { min: 1, max: 128, integer: true });
  if (n !== undefined && n !== 1) throw bad(CHAT_MESSAGES.onlyOneChoice, "n", "invalid_value");
  const limit = number(body, "max_completion_tokens", { min: 1, integer: true }) ?? number(body, "max_tokens", { min: 1, integer: true });
  const stream = body["stream"] ?? false;
  if (typeof stream !== "boolean") throw bad(CHAT_MESSAGES.type("stream", "a boolean", stream), "stream", "invalid_type");
  const options = body["stream_options"];
  if (options !== undefined && options !== null) {
    if (!stream) throw bad(CHAT_MESSAGES.streamOptions, "stream_options", null);
    if (!isObject(options)) throw bad(CHAT_MESSAGES.type("stream_options", "an object", options), "stream_options", "invalid_type");
  }
  const stop = body["stop"] ?? [];
  if (typeof stop !== "string" && !(Array.isArray(stop) && stop.every((s) => typeof s === "string")))
    throw bad(CHAT_MESSAGES.type("stop", "one of a string or array of strings", stop), "stop", "invalid_type");
  checkPairing(messages);

  const spec = model.length <= MAX_MODEL_NAME && Object.hasOwn(models, model) ? models[model] : undefined;
  if (!spec) throw bad(CHAT_MESSAGES.modelNotFound(model), null, "model_not_found", 404);
  if (limit !== undefined && limit > spec.maxOutputTokens)
    throw bad(
      CHAT_MESSAGES.tooManyTokens(limit, spec.maxOutputTokens),
      body["max_completion_tokens"] ? "max_completion_tokens" : "max_tokens",
      "invalid_value",
    );
  return {
    model,
    messages,
    tools,
    maxTokens: limit ?? spec.maxOutputTokens,
    stream,
    includeUsage: isObject(options) && options["include_usage"] === true,
    stop: typeof stop === "string" ? [stop] : (stop as string[]),
  };
}
