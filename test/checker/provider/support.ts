/** Helpers shared by the provider suite: a real provider per file, real SDK clients, raw requests. */
import Anthropic from "@anthropic-ai/sdk";
import { connect } from "node:net";
import { afterAll, beforeAll, expect } from "vitest";
import { startProvider, type Provider, type ProviderOptions } from "../../../checker/provider/index.js";
import { promptTokens } from "./render.js";

export const MODEL = "claude-opus-5";

export const ID = {
  message: /^msg_01[A-Za-z0-9]{22}$/,
  toolUse: /^toolu_01[A-Za-z0-9]{22}$/,
  request: /^req_01[A-Za-z0-9]{22}$/,
};

/** Starts one provider for the test file and closes it afterwards. */
export function useProvider(options: ProviderOptions = {}): () => Provider {
  let provider: Provider | undefined;
  beforeAll(async () => {
    provider = await startProvider(options);
  });
  afterAll(() => provider?.close());
  return () => provider!;
}

let keys = 0;
/** A new API key: fault counters and the prompt cache are scoped by it. */
export const freshKey = (): string => `lab-${process.pid}-${++keys}`;

export interface ClientOptions {
  options?: Record<string, string | number | boolean>;
  apiKey?: string;
  maxRetries?: number;
}

export function clientFor(provider: Provider, scenario = "echo", opts: ClientOptions = {}): Anthropic {
  return new Anthropic({
    baseURL: provider.url(scenario, opts.options ?? {}),
    apiKey: opts.apiKey ?? freshKey(),
    maxRetries: opts.maxRetries ?? 0,
  });
}

/** A one-message request body. */
export function ask(text: string, extra: Partial<Anthropic.MessageCreateParamsNonStreaming> = {}) {
  return { model: MODEL, max_tokens: 1024, messages: [{ role: "user" as const, content: text }], ...extra };
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** A POST with fetch, for what the SDK would never send. */
export async function post(
  provider: Provider,
  path: string,
  body: string | Uint8Array,
  headers: Record<string, string> = { "x-api-key": "raw-key", "anthropic-version": "2023-06-01" },
): Promise<RawResponse> {
  const response = await fetch(`${provider.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const TYPE_OF_STATUS: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  503: "api_error",
  529: "overloaded_error",
};

/** The API's error shape, its request_id equal to the header, and (when given) the exact message. */
export function expectErrorResponse(response: RawResponse, status: number, message?: string): void {
  expect(response.status).toBe(status);
  const requestId = response.headers.get("request-id");
  expect(requestId).toMatch(ID.request);
  expect(response.json).toEqual({
    type: "error",
    error: { type: TYPE_OF_STATUS[status], message: message ?? expect.any(String) },
    request_id: requestId,
  });
}

/** Runs a promise that must reject and returns what it rejected with. */
export async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection, but the promise resolved");
}

type Prompt = Pick<Anthropic.MessageCountTokensParams, "model" | "messages" | "system" | "tools">;

/**
 * The invariant every usage must keep: input + cache write + cache read is the whole prompt,
 * which is what count_tokens says and what the documented rendering counts.
 */
export async function expectUsageAddsUp(client: Anthropic, request: Prompt, usage: Anthropic.Usage): Promise<number> {
  const { model, messages, system, tools } = request;
  const counted = await client.messages.countTokens({ model, messages, ...(system ? { system } : {}), ...(tools ? { tools } : {}) });
  const sum = usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
  expect(sum).toBe(counted.input_tokens);
  expect(counted.input_tokens).toBe(promptTokens(request as Parameters<typeof promptTokens>[0]));
  return counted.input_tokens;
}

/** The usage object's full set of fields, with numbers in it. */
export const FULL_USAGE = {
  input_tokens: expect.any(Number),
  output_tokens: expect.any(Number),
  cache_creation_input_tokens: expect.any(Number),
  cache_read_input_tokens: expect.any(Number),
  cache_creation: { ephemeral_5m_input_tokens: expect.any(Number), ephemeral_1h_input_tokens: expect.any(Number) },
  service_tier: "standard",
};

export interface RawReply {
  /** True when the socket closed without a complete HTTP response. */
  closed: boolean;
  status: number;
  headers: Record<string, string>;
  body: string;
  json: unknown;
}

/**
 * Sends `bytes` as they are over a fresh socket and reads until the server closes it or
 * `Connection: close` ends the reply: for requests fetch refuses to send.
 */
export function rawHttp(provider: Provider, bytes: string | Uint8Array, waitMs = 10_000): Promise<RawReply> {
  return new Promise((resolve) => {
    const socket = connect(provider.port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(parseRawReply(Buffer.concat(chunks).toString("latin1")));
    });
    socket.end(typeof bytes === "string" ? Buffer.from(bytes, "latin1") : bytes);
  });
}

function parseRawReply(text: string): RawReply {
  const split = text.indexOf("\r\n\r\n");
  const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
  if (split < 0 || !status) return { closed: true, status: 0, headers: {}, body: "", json: null };
  const headers: Record<string, string> = {};
  for (const line of text.slice(0, split).split("\r\n").slice(1)) {
    const at = line.indexOf(":");
    headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
  }
  let body = text.slice(split + 4);
  if (headers["transfer-encoding"] === "chunked") body = unchunk(body);
  const length = headers["content-length"];
  const complete = length === undefined || Buffer.byteLength(body, "latin1") >= Number(length);
  body = Buffer.from(body, "latin1").toString("utf8");
  let json: unknown = null;
  try {
    json = JSON.parse(body);
  } catch {
    json = null;
  }
  return { closed: !complete, status: Number(status), headers, body, json };
}

function unchunk(body: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const eol = body.indexOf("\r\n", at);
    if (eol < 0) return out;
    const size = parseInt(body.slice(at, eol), 16);
    if (!size) return out;
    out += body.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/** Why `reply` is not one answer in the API's error shape (request_id equal to its header), or null. */
export function notErrorShape(reply: { status: number; headers: Record<string, string> | Headers; json: unknown }): string | null {
  const body = reply.json as { type?: unknown; error?: { type?: unknown; message?: unknown }; request_id?: unknown } | null;
  const requestId = reply.headers instanceof Headers ? reply.headers.get("request-id") : reply.headers["request-id"];
  if (reply.status < 400 || reply.status > 599) return `status ${reply.status}`;
  if (!body || Object.keys(body).join() !== "type,error,request_id" || body.type !== "error") return `shape ${JSON.stringify(body)?.slice(0, 200)}`;
  if (Object.keys(body.error ?? {}).join() !== "type,message" || typeof body.error!.message !== "string") return `error ${JSON.stringify(body.error)}`;
  if (body.error!.type !== TYPE_OF_STATUS[reply.status] && !(reply.status >= 500 && body.error!.type === "api_error"))
    return `type ${String(body.error!.type)} for ${reply.status}`;
  if (typeof requestId !== "string" || !ID.request.test(requestId) || body.request_id !== requestId)
    return `request_id ${String(body.request_id)} / ${requestId}`;
  return null;
}
