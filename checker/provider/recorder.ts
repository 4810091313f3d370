/**
 * The recorder: a loopback server that forwards each request to a real endpoint, hands its
 * answer back unchanged (a stream chunk by chunk, as the chunks arrive) and appends the
 * exchange to a cassette, one JSON line each, for `startProvider({ cassette })` to replay.
 * No request header is written, and the key the client sent (x-api-key, api-key, or an
 * authorization header's token) is cut out of everything that is, whatever else holds it.
 */
import { appendFileSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { StringDecoder } from "node:string_decoder";
import type { RecordedExchange } from "./cassette.js";
import { ApiError } from "./errors.js";
import { answerClientError, MAX_BODY_BYTES, sendJson } from "./http-io.js";
import { messageOf } from "./reply-check.js";
import { parseRoute } from "./route.js";
import { wireFor } from "./wires.js";

export const RECORDER_MESSAGES = {
  badUpstream: (url: string) => `The upstream ${JSON.stringify(url)} is not an http:// or https:// URL.`,
  unreachable: (upstream: string, detail: string) => `The recorder could not reach ${upstream}: ${detail}`,
  redacted: "[redacted]",
} as const;

/** Headers that belong to one hop, or carry who is asking: never forwarded as they are, never written. */
const HOP = new Set(["host", "connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer", "accept-encoding"]);
const NEVER_WRITTEN = new Set([
  "set-cookie",
  "cookie",
  "authorization",
  "x-api-key",
  "api-key",
  "proxy-authorization",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "date",
]);

export interface RecorderOptions {
  /** Where requests go: a base URL such as https://api.anthropic.com or http://127.0.0.1:4010/s/weather. */
  upstream: string;
  /** The cassette file; exchanges are appended. */
  out: string;
  port?: number;
  host?: string;
  /** Told of each exchange as it is written (already without secrets). */
  onRecord?: (exchange: RecordedExchange) => void;
  /** Told when an exchange could not be appended to the cassette. */
  onWriteError?: (err: unknown) => void;
}

export interface Recorder {
  readonly port: number;
  readonly origin: string;
  close(): Promise<void>;
}

/** The upstream as a URL, or an error naming what was given. */
export function upstreamUrl(upstream: string): URL {
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    throw new Error(RECORDER_MESSAGES.badUpstream(upstream));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(RECORDER_MESSAGES.badUpstream(upstream));
  return url;
}

/** Shorter values (the lab's own "lab") are no secret, and cutting them out would break the text they occur in. */
export const SHORTEST_SECRET = 8;

/** The request's bytes as sent, or null past `limit` (the rest is drained). */
function readBytes(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on("error", reject);
    req.on("end", () => resolve(size > limit ? null : Buffer.concat(chunks)));
  });
}

/** The secrets a request carries: the key headers' values and a bearer token. */
function secretsOf(headers: IncomingHttpHeaders): string[] {
  const found: string[] = [];
  for (const name of ["x-api-key", "api-key", "authorization", "proxy-authorization"]) {
    const value = headers[name];
    if (typeof value !== "string" || value === "") continue;
    found.push(value);
    const token = /^\S+\s+(\S+)$/.exec(value)?.[1];
    if (token) found.push(token);
  }
  // The longest first, so that a token inside a header's value is not left half cut.
  return found.filter((s) => s.length >= SHORTEST_SECRET).sort((a, b) => b.length - a.length);
}

/** The line without any secret, in its plain and its JSON-escaped spelling. */
export function redact(line: string, secrets: string[]): string {
  let out = line;
  for (const secret of secrets) {
    for (const spelling of new Set([secret, JSON.stringify(secret).slice(1, -1)])) out = out.split(spelling).join(RECORDER_MESSAGES.redacted);
  }
  return out;
}

function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP.has(name)) out[name] = value;
  // Bytes as the upstream sent them reach the client, so the cassette must hold readable text.
  out["accept-encoding"] = "identity";
  return out;
}

function recordedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || NEVER_WRITTEN.has(name) || name === "content-length") continue;
    out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const base = upstreamUrl(options.upstream);
  // A cassette that cannot be written is said at start, not after the first exchange.
  appendFileSync(options.out, "");
  const prefix = base.pathname.replace(/\/+$/, "");
  const send = base.protocol === "https:" ? httpsRequest : httpRequest;
  // Credentials in the upstream URL itself are neither shown nor written.
  const shown = `${base.protocol}//${base.host}${prefix}`;

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const wire = wireFor(parseRoute(req.url ?? "/").endpoint);
    const bytes = await readBytes(req, MAX_BODY_BYTES);
    if (bytes === null) {
      const error = new ApiError(413, `Request exceeds the maximum allowed size of ${MAX_BODY_BYTES} bytes.`);
      const id = wire.newRequestId();
      return sendJson(res, 413, wire.errorBody(error, id), { [wire.requestIdHeader]: id });
    }
    const secrets = secretsOf(req.headers);
    const upstream = send(
      {
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        path: `${prefix}${req.url ?? "/"}`,
        method: req.method,
        headers: forwardedHeaders(req.headers),
      },
      (answer) => {
        const streamed = String(answer.headers["content-type"] ?? "").startsWith("text/event-stream");
        res.writeHead(answer.statusCode ?? 502, Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP.has(name))));
        res.flushHeaders();
        const decoder = new StringDecoder("utf8");
        const chunks: string[] = [];
        answer.on("data", (chunk: Buffer) => {
          res.write(chunk);
          chunks.push(decoder.write(chunk));
        });
        answer.on("end", () => {
          res.end();
          const tail = decoder.end();
          if (tail) chunks.push(tail);
          const text = bytes.toString("utf8");
          let request: unknown = text;
          try {
            request = JSON.parse(text);
          } catch {
            // Kept as text: a replay refuses it the same way.
          }
          const exchange: RecordedExchange = {
            v: 1,
            method: req.method ?? "GET",
            path: req.url ?? "/",
            request,
            status: answer.statusCode ?? 0,
            headers: recordedHeaders(answer.headers),
            ...(streamed ? { chunks: chunks.filter((c) => c !== "") } : { body: chunks.join("") }),
            ms: Math.round(performance.now() - started),
          };
          const line = redact(JSON.stringify(exchange), secrets);
          try {
            appendFileSync(options.out, `${line}\n`);
            options.onRecord?.(JSON.parse(line) as RecordedExchange);
          } catch (err) {
            // The client has its answer already; a full disk loses the recording, not the recorder.
            options.onWriteError?.(err);
          }
        });
        answer.on("error", () => res.destroy());
      },
    );
    upstream.on("error", (err) => {
      if (res.headersSent) return void res.destroy();
      const id = wire.newRequestId();
      sendJson(res, 502, wire.errorBody(new ApiError(502, RECORDER_MESSAGES.unreachable(shown, messageOf(err)), { type: "api_error" }), id), {
        [wire.requestIdHeader]: id,
      });
    });
    // A client that leaves stops the upstream call too.
    res.on("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.end(bytes);
  }

  const server = createServer((req, res) => void forward(req, res).catch(() => res.destroy()));
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | null = null;
  return {
    port,
    origin: `http://${options.host ?? "127.0.0.1"}:${port}`,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
