/**
 * A loopback relay in front of a real Messages API endpoint. Each request is sent on to
 * `upstream` (its base URL plus the request's path) and the answer comes back unchanged, streamed
 * chunk by chunk as it arrives; an upstream that cannot be reached drops the connection, as the
 * endpoint itself would have. What crossed is recorded in the scripted provider's own Exchange
 * shape, so a test reads a live run the way it reads a scripted one.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Exchange } from "../../provider/index.js";
import { apiKeyOf } from "../../provider/request-parts.js";
import { foldStream } from "./sse-message.js";

/** What the relay asks before sending a request on: a refusal, or what to do once it is answered. */
export type Admission = { refused: string } | { settle(exchange: Exchange): void };

export interface RelayOptions {
  /** Base URL of the real endpoint, e.g. https://api.anthropic.com or http://127.0.0.1:8080. */
  upstream: string;
  /** Sets what the upstream must see (the real key) on the headers the client sent. */
  authorize?: (headers: Headers) => void;
  /** Asked before each request goes out; a refusal is answered as the API's 400, and nothing is sent. */
  admit?: (body: unknown, bytes: number) => Admission;
}

export interface Relay {
  /** http://127.0.0.1:PORT: a base URL for an SDK client. */
  readonly url: string;
  /** The newest exchanges, oldest first. */
  readonly requests: readonly Exchange[];
  close(): Promise<void>;
}

/** How many exchanges a relay keeps, and how much of one answer it reads into its record. */
const KEEP = 1_000;
const RECORD_BYTES = 8 * 1024 * 1024;
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Headers that describe one connection or one encoding of the body, never the message. */
const HOP = new Set(["host", "connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "accept-encoding", "upgrade"]);

export const RELAY_MESSAGES = {
  tooLarge: `The request is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB.`,
} as const;

function endpointOf(path: string): Exchange["endpoint"] {
  const bare = path.split("?")[0]!;
  return bare.endsWith("/v1/messages/count_tokens") ? "count_tokens" : bare.endsWith("/v1/messages") ? "messages" : "unknown";
}

async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.slice(0, 2048);
  }
}

/** The answer as the provider would have recorded it: a streamed one folded back into its message. */
function responseOf(text: string, eventStream: boolean): { response: unknown; usage: unknown } {
  if (!eventStream) {
    const response = parsed(text) as { usage?: unknown } | null;
    return { response, usage: response && typeof response === "object" ? (response.usage ?? null) : null };
  }
  const { message, error } = foldStream(text);
  if (error) return { response: { type: "error", error }, usage: message?.["usage"] ?? null };
  return { response: message, usage: message?.["usage"] ?? null };
}

export async function startRelay(options: RelayOptions): Promise<Relay> {
  const upstream = options.upstream.replace(/\/+$/, "");
  const requests: Exchange[] = [];
  let seq = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now();
    const path = req.url ?? "/";
    const bytes = await readBody(req);
    const base = { seq: ++seq, at, method: req.method ?? "GET", path, endpoint: endpointOf(path), scenario: null, options: {}, attempt: 1 };
    const body = bytes && bytes.length > 0 ? parsed(bytes.toString("utf8")) : null;
    const exchange: Exchange = {
      ...base,
      ms: 0,
      apiKey: apiKeyOf(req),
      requestId: "",
      stream: (body as { stream?: unknown } | null)?.stream === true,
      body,
      status: 0,
      outcome: "dropped",
      response: null,
      usage: null,
    };
    const record = () => {
      exchange.ms = Date.now() - at;
      requests.push(exchange);
      if (requests.length > KEEP) requests.shift();
    };
    const refuse = (status: number, message: string) => {
      const type = status === 413 ? "request_too_large" : "invalid_request_error";
      const answer = { type: "error", error: { type, message } };
      Object.assign(exchange, { status, outcome: "error", response: answer });
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(answer));
      record();
    };
    if (bytes === null) return refuse(413, RELAY_MESSAGES.tooLarge);
    const admission = options.admit?.(body, bytes.length) ?? null;
    if (admission && "refused" in admission) return refuse(400, admission.refused);

    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (HOP.has(name) || value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    options.authorize?.(headers);
    const stop = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) stop.abort();
    });
    const kept: Buffer[] = [];
    let keptBytes = 0;
    try {
      const answer = await fetch(upstream + path, {
        method: exchange.method,
        headers,
        ...(exchange.method === "GET" || exchange.method === "HEAD" ? {} : { body: bytes }),
        signal: stop.signal,
        redirect: "manual",
      });
      exchange.status = answer.status;
      exchange.requestId = answer.headers.get("request-id") ?? "";
      const passed: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP.has(name)) passed[name] = value;
      });
      res.writeHead(answer.status, passed);
      for await (const chunk of (answer.body ?? []) as AsyncIterable<Uint8Array>) {
        res.write(chunk);
        if (keptBytes + chunk.length <= RECORD_BYTES) kept.push(Buffer.from(chunk));
        keptBytes += chunk.length;
      }
      res.end();
      const text = keptBytes <= RECORD_BYTES ? Buffer.concat(kept).toString("utf8") : "";
      const { response, usage } = responseOf(text, (answer.headers.get("content-type") ?? "").includes("event-stream"));
      const ok = answer.status >= 200 && answer.status < 300 && (response as { type?: unknown } | null)?.type !== "error";
      const outcome = ok ? (exchange.endpoint === "count_tokens" ? "count" : "message") : "error";
      Object.assign(exchange, { outcome, response, usage });
    } catch {
      // Unreachable, or cut off midway: the client meets a dropped connection, as it would have.
      exchange.outcome = "dropped";
      res.destroy();
    }
    record();
    if (admission) admission.settle(exchange);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
