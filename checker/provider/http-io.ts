import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError } from "./errors.js";
import { requestId } from "./ids.js";

export const HTTP_MESSAGES = {
  notHttp: (code: string) => `The request is not valid HTTP (${code}).`,
} as const;

/** The real API's request size limit. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Reads the whole body; past `limit` the rest is drained and discarded, and a 413 follows. */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on("error", reject);
    req.on("end", () => {
      if (tooLarge) return reject(new ApiError(413, `Request exceeds the maximum allowed size of ${limit} bytes.`));
      try {
        resolve(utf8.decode(Buffer.concat(chunks)));
      } catch {
        reject(new ApiError(400, "The request body is not valid UTF-8."));
      }
    });
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(payload)),
  });
  res.end(payload);
}

/** Sends the head and half of a JSON body, then cuts the connection. */
export function sendTruncatedJson(res: ServerResponse, body: unknown, headers: Record<string, string>): void {
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(200, { ...headers, "content-type": "application/json", "content-length": String(payload.length) });
  res.write(payload.subarray(0, Math.floor(payload.length / 2)), () => res.socket?.destroy());
}

/**
 * Bytes that are not HTTP (or a client too slow to finish its request) never reach the handler.
 * A parse error still gets a 400 in the API's error shape; a timed-out or broken socket is closed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const writable = socket.writable && !(socket as { _httpMessage?: unknown })._httpMessage;
  if (!writable || err.code === "ECONNRESET" || err.code === "ERR_HTTP_REQUEST_TIMEOUT" || err.code === "ERR_HTTP_HEADERS_TIMEOUT") {
    socket.destroy();
    return;
  }
  const id = requestId();
  const body = JSON.stringify(new ApiError(400, HTTP_MESSAGES.notHttp(err.code ?? "parse error")).body(id));
  socket.end(
    `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nrequest-id: ${id}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
