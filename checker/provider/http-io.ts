import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "./errors.js";

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
