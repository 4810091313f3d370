/**
 * The two APIs the provider speaks, as the parts in which they differ: who is asking, how a
 * body is checked and worded, how an error and a reply are written. The handler shares the
 * rest (routing, scenarios, tokens, the prompt cache), so a scenario is written once.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { chatFrames, toCompletion } from "./chat/reply.js";
import { CHAT_MESSAGES, validateChatRequest } from "./chat/request.js";
import { toMessagesRequest } from "./chat/translate.js";
import { ApiError, type ErrorBody } from "./errors.js";
import { requestId } from "./ids.js";
import type { ModelSpec } from "./models.js";
import type { ResponseMessage } from "./reply.js";
import type { Endpoint } from "./route.js";
import { messageFrames, type Frame } from "./sse.js";
import { MESSAGES, validateMessagesRequest } from "./validate.js";
import type { MessagesRequest } from "./wire.js";

export const WIRE_MESSAGES = {
  missingKey: "x-api-key header is required",
  missingVersion: "anthropic-version: header is required",
} as const;

export interface ParsedRequest {
  /** What the scenario reads, whichever wire it came by. */
  request: MessagesRequest;
  stream: boolean;
  /** Chat completions only: a last chunk with the usage (stream_options.include_usage). */
  includeUsage: boolean;
}

export interface Wire {
  readonly requestIdHeader: string;
  newRequestId(): string;
  missingKey(): ApiError;
  /** A header the API requires besides the key, or null. */
  headerProblem(req: IncomingMessage): ApiError | null;
  bodyNotJson(detail: string): ApiError;
  errorBody(error: ApiError, requestId: string): unknown;
  /** Checks the body in this API's words; throws an ApiError naming the first problem. */
  parse(body: unknown, models: Readonly<Record<string, ModelSpec>>, countOnly: boolean): ParsedRequest;
  promptTooLong(tokens: number, maximum: number): ApiError;
  /** The reply as this API's JSON body; `now` is the provider's clock in ms. */
  body(message: ResponseMessage, now: number): unknown;
  frames(message: ResponseMessage, now: number, parsed: ParsedRequest): Frame[];
}

export const MESSAGES_WIRE: Wire = {
  requestIdHeader: "request-id",
  newRequestId: requestId,
  missingKey: () => new ApiError(401, WIRE_MESSAGES.missingKey),
  headerProblem: (req) => (req.headers["anthropic-version"] ? null : new ApiError(400, WIRE_MESSAGES.missingVersion)),
  bodyNotJson: (detail) => new ApiError(400, MESSAGES.bodyNotJson(detail)),
  errorBody: (error, id): ErrorBody => error.body(id),
  parse(body, _models, countOnly) {
    const request = validateMessagesRequest(body, { countOnly });
    return { request, stream: request.stream === true, includeUsage: false };
  },
  promptTooLong: (tokens, maximum) => new ApiError(400, MESSAGES.promptTooLong(tokens, maximum)),
  body: (message) => message,
  frames: (message) => messageFrames(message),
};

/** The chat-completions error body: { error: { message, type, param, code } }. */
export interface ChatErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

function chatErrorType(status: number): string {
  if (status === 429) return "requests";
  return status >= 500 ? "server_error" : "invalid_request_error";
}

const DEFAULT_CODES: Record<number, string> = { 401: "invalid_api_key", 429: "rate_limit_exceeded" };

export const CHAT_WIRE: Wire = {
  requestIdHeader: "x-request-id",
  newRequestId: () => `req_${randomBytes(16).toString("hex")}`,
  missingKey: () => new ApiError(401, CHAT_MESSAGES.missingKey),
  headerProblem: () => null,
  bodyNotJson: () => new ApiError(400, CHAT_MESSAGES.bodyNotJson),
  errorBody: (error): ChatErrorBody => ({
    error: { message: error.message, type: chatErrorType(error.status), param: error.param, code: error.code ?? DEFAULT_CODES[error.status] ?? null },
  }),
  parse(body, models) {
    const chat = validateChatRequest(body, models);
    return { request: toMessagesRequest(chat), stream: chat.stream, includeUsage: chat.includeUsage };
  },
  promptTooLong: (tokens, maximum) => new ApiError(400, CHAT_MESSAGES.contextLength(tokens, maximum), { param: "messages", code: "context_length_exceeded" }),
  body: (message, now) => toCompletion(message, Math.floor(now / 1000)),
  frames: (message, now, parsed) => chatFrames(message, Math.floor(now / 1000), parsed.includeUsage),
};

export const wireFor = (endpoint: Endpoint): Wire => (endpoint === "chat_completions" ? CHAT_WIRE : MESSAGES_WIRE);
