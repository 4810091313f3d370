/** Serving a request from a cassette: the recorded status, headers and bytes, or a 404 naming the closest recording. */
import type { ServerResponse } from "node:http";
import type { Cassette, RecordedExchange } from "./cassette.js";
import { ApiError } from "./errors.js";
import type { Exchange } from "./exchange.js";

/** Answers `record`'s request from the cassette; returns the error to send when nothing recorded matches. */
export function replayAnswer(cassette: Cassette, record: Exchange, res: ServerResponse): ApiError | null {
  const match = cassette.match(record.method, record.path, record.body);
  if (match.kind === "missing") return new ApiError(404, match.message, { code: "no_recorded_match" });
  writeRecorded(match.exchange, match.index, record, res);
  return null;
}

/**
 * A request the replay's own validation refused: when the upstream refused this very request
 * too, its recorded refusal is sent (the same words, its request id), so that a replay answers
 * as the recording did; otherwise nothing is sent and the replay's own refusal stands.
 */
export function replayRefusal(cassette: Cassette, record: Exchange, res: ServerResponse): boolean {
  const found = record.body === null ? null : cassette.recordedRefusal(record.path, record.body);
  if (!found) return false;
  writeRecorded(found.exchange, found.index, record, res);
  return true;
}

function writeRecorded(exchange: RecordedExchange, index: number, record: Exchange, res: ServerResponse): void {
  record.status = exchange.status;
  record.outcome = "replayed";
  record.replayed = index + 1;
  let response: unknown = null;
  if (exchange.chunks) {
    res.writeHead(exchange.status, exchange.headers);
    for (const chunk of exchange.chunks) res.write(chunk);
    res.end();
  } else {
    const body = exchange.body!;
    try {
      response = JSON.parse(body);
    } catch {
      response = null;
    }
    res.writeHead(exchange.status, { ...exchange.headers, "content-length": String(Buffer.byteLength(body)) });
    res.end(body);
  }
  record.response = response as Exchange["response"];
}
