/**
 * Request validation with the real API's wording. Field problems read like the API's
 * ("max_tokens: Field required"); the tool-pairing and cache_control checks quote its
 * messages word for word, because the tool loop's bugs only show up through them.
 */
import { invalid } from "./errors.js";
import { MAX_BREAKPOINTS } from "./prompt-cache.js";
import { blocksOf, isToolResult, isToolUse, type MessagesRequest, type WireMessage } from "./wire.js";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

/** The `type` tags a message content block may carry: the pinned SDK's ContentBlockParam, sorted as the API lists them. */
export const CONTENT_BLOCK_TAGS = [
  "bash_code_execution_tool_result",
  "code_execution_tool_result",
  "container_upload",
  "document",
  "image",
  "redacted_thinking",
  "search_result",
  "server_tool_use",
  "text",
  "text_editor_code_execution_tool_result",
  "thinking",
  "tool_result",
  "tool_search_tool_result",
  "tool_use",
  "web_fetch_tool_result",
  "web_search_tool_result",
];

/** The API's words for a tagged union's tag it does not know; a tag past 100 characters is cut. */
const tagMismatch = (path: string, tag: string, expected: readonly string[]) =>
  `${path}: Input tag '${tag.length > 100 ? `${tag.slice(0, 100)}…` : tag}' found using 'type' does not match any of the expected tags: ${expected
    .map((t) => `'${t}'`)
    .join(", ")}`;

/** How deep arrays and objects may nest in a body (the body itself is level 1). */
export const MAX_DEPTH = 128;

export const MESSAGES = {
  bodyNotJson: (detail: string) => `The request body is not valid JSON: ${detail}`,
  bodyNotObject: "The request body must be a JSON object.",
  bodyTooDeep: `The request body nests deeper than ${MAX_DEPTH} levels.`,
  required: (path: string) => `${path}: Field required`,
  string: (path: string) => `${path}: Input should be a valid string`,
  integer: (path: string) => `${path}: Input should be a valid integer`,
  number: (path: string) => `${path}: Input should be a valid number`,
  boolean: (path: string) => `${path}: Input should be a valid boolean`,
  list: (path: string) => `${path}: Input should be a valid list`,
  object: (path: string) => `${path}: Input should be a valid dictionary`,
  atLeastOne: (path: string) => `${path}: Input should be greater than or equal to 1`,
  atLeast: (path: string, n: number) => `${path}: Input should be greater than or equal to ${n}`,
  atMost: (path: string, n: number) => `${path}: Input should be less than or equal to ${n}`,
  toolChoiceObject: "tool_choice: Input should be a valid dictionary or object to extract fields from",
  toolChoiceNoTag: "tool_choice: Unable to extract tag using discriminator 'type'",
  toolChoiceTag: (tag: string) => tagMismatch("tool_choice", tag, ["auto", "any", "tool", "none"]),
  blockTag: (path: string, tag: string) => tagMismatch(path, tag, CONTENT_BLOCK_TAGS),
  role: (path: string) => `${path}: Input should be 'user' or 'assistant'`,
  emptyMessages: "messages: at least one message is required",
  firstRole: 'messages: first message must use the "user" role',
  ttl: (path: string) => `${path}: Input should be '5m' or '1h'`,
  ephemeral: (path: string) => `${path}: Input should be 'ephemeral'`,
  toolName: (path: string) => `${path}: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`,
  duplicateTool: (name: string) => `tools: Tool names must be unique. Found duplicate: ${name}`,
  tooManyBreakpoints: (found: number) => `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${found}.`,
  unexpectedToolResult: (n: number, k: number, id: string) =>
    `messages.${n}.content.${k}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. ` +
    "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
  missingToolResult: (n: number, ids: string[]) =>
    `messages.${n}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids.join(", ")}. ` +
    "Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
  promptTooLong: (tokens: number, maximum: number) => `prompt is too long: ${tokens} tokens > ${maximum} maximum`,
} as const;

/** True when arrays and objects in `value` nest deeper than `limit`; iterative, so no depth can overflow the stack. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node as object)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

function requireString(body: Json, key: string, path: string): void {
  if (!(key in body)) throw invalid(MESSAGES.required(path));
  if (typeof body[key] !== "string") throw invalid(MESSAGES.string(path));
}

function optional(body: Json, key: string, check: (v: unknown) => boolean, message: (p: string) => string, path: string) {
  if (body[key] !== undefined && body[key] !== null && !check(body[key])) throw invalid(message(path));
}

function checkCacheControl(value: unknown, path: string): number {
  if (value === undefined || value === null) return 0;
  if (!isObject(value)) throw invalid(MESSAGES.object(path));
  if (value["type"] !== "ephemeral") throw invalid(MESSAGES.ephemeral(`${path}.type`));
  if (value["ttl"] !== undefined && value["ttl"] !== "5m" && value["ttl"] !== "1h") throw invalid(MESSAGES.ttl(`${path}.ttl`));
  return 1;
}

function checkTextBlock(block: Json, path: string): void {
  if (!("text" in block)) throw invalid(MESSAGES.required(`${path}.text`));
  if (typeof block["text"] !== "string") throw invalid(MESSAGES.string(`${path}.text`));
}

/** Checks one content block's fields; returns how many cache_control markers it carries. */
function checkBlock(block: unknown, path: string): number {
  if (!isObject(block)) throw invalid(MESSAGES.object(path));
  if (!("type" in block)) throw invalid(MESSAGES.required(`${path}.type`));
  if (typeof block["type"] !== "string") throw invalid(MESSAGES.string(`${path}.type`));
  if (!CONTENT_BLOCK_TAGS.includes(block["type"])) throw invalid(MESSAGES.blockTag(path, block["type"]));
  switch (block["type"]) {
    case "text":
      checkTextBlock(block, path);
      break;
    case "tool_use":
      requireString(block, "id", `${path}.id`);
      requireString(block, "name", `${path}.name`);
      if (!("input" in block)) throw invalid(MESSAGES.required(`${path}.input`));
      if (!isObject(block["input"])) throw invalid(MESSAGES.object(`${path}.input`));
      break;
    case "tool_result": {
      requireString(block, "tool_use_id", `${path}.tool_use_id`);
      const content = block["content"];
      if (content !== undefined && typeof content !== "string") {
        if (!Array.isArray(content)) throw invalid(MESSAGES.string(`${path}.content`));
        content.forEach((part, i) => {
          if (!isObject(part)) throw invalid(MESSAGES.object(`${path}.content.${i}`));
          if (part["type"] === "text") checkTextBlock(part, `${path}.content.${i}`);
        });
      }
      optional(block, "is_error", (v) => typeof v === "boolean", MESSAGES.boolean, `${path}.is_error`);
      break;
    }
  }
  return checkCacheControl(block["cache_control"], `${path}.cache_control`);
}

function checkMessages(value: unknown): number {
  if (!Array.isArray(value)) throw invalid(MESSAGES.list("messages"));
  if (value.length === 0) throw invalid(MESSAGES.emptyMessages);
  let markers = 0;
  value.forEach((message, n) => {
    const path = `messages.${n}`;
    if (!isObject(message)) throw invalid(MESSAGES.object(path));
    if (!("role" in message)) throw invalid(MESSAGES.required(`${path}.role`));
    if (message["role"] !== "user" && message["role"] !== "assistant") throw invalid(MESSAGES.role(`${path}.role`));
    if (!("content" in message)) throw invalid(MESSAGES.required(`${path}.content`));
    const content = message["content"];
    if (typeof content === "string") return;
    if (!Array.isArray(content)) throw invalid(MESSAGES.string(`${path}.content`));
    content.forEach((block, k) => (markers += checkBlock(block, `${path}.content.${k}`)));
  });
  if ((value[0] as Json)["role"] !== "user") throw invalid(MESSAGES.firstRole);
  return markers;
}

function checkSystem(value: unknown): number {
  if (value === undefined || value === null || typeof value === "string") return 0;
  if (!Array.isArray(value)) throw invalid(MESSAGES.string("system"));
  let markers = 0;
  value.forEach((block, i) => {
    const path = `system.${i}`;
    if (!isObject(block)) throw invalid(MESSAGES.object(path));
    if (block["type"] !== "text") throw invalid(`${path}.type: Input should be 'text'`);
    checkTextBlock(block, path);
    markers += checkCacheControl(block["cache_control"], `${path}.cache_control`);
  });
  return markers;
}

function checkTools(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (!Array.isArray(value)) throw invalid(MESSAGES.list("tools"));
  let markers = 0;
  const seen = new Set<string>();
  value.forEach((tool, i) => {
    const path = `tools.${i}`;
    if (!isObject(tool)) throw invalid(MESSAGES.object(path));
    requireString(tool, "name", `${path}.name`);
    const name = tool["name"] as string;
    if (!TOOL_NAME.test(name)) throw invalid(MESSAGES.toolName(`${path}.name`));
    if (seen.has(name)) throw invalid(MESSAGES.duplicateTool(name));
    seen.add(name);
    if (tool["type"] === undefined || tool["type"] === "custom") {
      if (!("input_schema" in tool)) throw invalid(MESSAGES.required(`${path}.input_schema`));
      if (!isObject(tool["input_schema"])) throw invalid(MESSAGES.object(`${path}.input_schema`));
    }
    optional(tool, "description", (v) => typeof v === "string", MESSAGES.string, `${path}.description`);
    markers += checkCacheControl(tool["cache_control"], `${path}.cache_control`);
  });
  return markers;
}

const TOOL_CHOICE_TAGS = ["auto", "any", "tool", "none"];

/** tool_choice is a union tagged by `type`; the API words its refusals as its validator does. */
function checkToolChoice(value: unknown): void {
  if (value === undefined || value === null) return;
  if (!isObject(value)) throw invalid(MESSAGES.toolChoiceObject);
  if (!("type" in value)) throw invalid(MESSAGES.toolChoiceNoTag);
  const tag = value["type"];
  if (typeof tag !== "string" || !TOOL_CHOICE_TAGS.includes(tag))
    throw invalid(MESSAGES.toolChoiceTag(typeof tag === "string" ? tag : (JSON.stringify(tag) ?? String(tag))));
  if (tag === "tool") requireString(value, "name", "tool_choice.tool.name");
  if (tag !== "none")
    optional(value, "disable_parallel_tool_use", (v) => typeof v === "boolean", MESSAGES.boolean, `tool_choice.${tag}.disable_parallel_tool_use`);
}

/** Consecutive messages with the same role form one turn, as on the real API. */
interface Turn {
  role: "user" | "assistant";
  indices: number[];
}

function turnsOf(messages: WireMessage[]): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((message, index) => {
    const last = turns.at(-1);
    if (last && last.role === message.role) last.indices.push(index);
    else turns.push({ role: message.role, indices: [index] });
  });
  return turns;
}

/** Every tool_use must be answered in the next turn, and every tool_result must answer the previous one. */
export function checkToolPairing(messages: WireMessage[]): void {
  const turns = turnsOf(messages);
  turns.forEach((turn, t) => {
    if (turn.role === "user") {
      const previous = t > 0 ? turns[t - 1] : undefined;
      const asked = new Set(
        (previous?.indices ?? []).flatMap((i) =>
          blocksOf(messages[i]!)
            .filter(isToolUse)
            .map((b) => b.id),
        ),
      );
      for (const n of turn.indices) {
        blocksOf(messages[n]!).forEach((block, k) => {
          if (isToolResult(block) && !asked.has(block.tool_use_id)) {
            throw invalid(MESSAGES.unexpectedToolResult(n, k, block.tool_use_id));
          }
        });
      }
      return;
    }
    const next = turns[t + 1];
    const answered = new Set(
      (next?.indices ?? []).flatMap((i) =>
        blocksOf(messages[i]!)
          .filter(isToolResult)
          .map((b) => b.tool_use_id),
      ),
    );
    for (const n of turn.indices) {
      const missing = blocksOf(messages[n]!)
        .filter(isToolUse)
        .map((b) => b.id)
        .filter((id) => !answered.has(id));
      if (missing.length > 0) throw invalid(MESSAGES.missingToolResult(n, missing));
    }
  });
}

/** Validates a Messages request body; throws an ApiError(400) naming the first problem. */
export function validateMessagesRequest(body: unknown, opts: { countOnly?: boolean } = {}): MessagesRequest {
  if (!isObject(body)) throw invalid(MESSAGES.bodyNotObject);
  requireString(body, "model", "model");
  if (!opts.countOnly) {
    if (!("max_tokens" in body)) throw invalid(MESSAGES.required("max_tokens"));
    const maxTokens = body["max_tokens"];
    if (!Number.isInteger(maxTokens)) throw invalid(MESSAGES.integer("max_tokens"));
    if ((maxTokens as number) < 1) throw invalid(MESSAGES.atLeastOne("max_tokens"));
    // 1e21 is an integer to JavaScript, not to the API's 64-bit field.
    if (!Number.isSafeInteger(maxTokens)) throw invalid(MESSAGES.integer("max_tokens"));
  }
  if (!("messages" in body)) throw invalid(MESSAGES.required("messages"));
  let markers = checkMessages(body["messages"]);
  markers += checkSystem(body["system"]);
  markers += checkTools(body["tools"]);
  markers += checkCacheControl(body["cache_control"], "cache_control");
  optional(body, "stream", (v) => typeof v === "boolean", MESSAGES.boolean, "stream");
  optional(body, "temperature", (v) => typeof v === "number", MESSAGES.number, "temperature");
  optional(
    body,
    "temperature",
    (v) => (v as number) >= 0,
    (p) => MESSAGES.atLeast(p, 0),
    "temperature",
  );
  optional(
    body,
    "temperature",
    (v) => (v as number) <= 1,
    (p) => MESSAGES.atMost(p, 1),
    "temperature",
  );
  checkToolChoice(body["tool_choice"]);
  optional(body, "stop_sequences", (v) => Array.isArray(v) && v.every((s) => typeof s === "string"), MESSAGES.list, "stop_sequences");
  if (markers > MAX_BREAKPOINTS) throw invalid(MESSAGES.tooManyBreakpoints(markers));
  const request = body as unknown as MessagesRequest;
  checkToolPairing(request.messages);
  return request;
}
