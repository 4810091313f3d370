/** What the provider records of each request. */
import type { ChatCompletion } from "./chat/reply.js";
import type { ErrorBody } from "./errors.js";
import type { ResponseMessage, Usage } from "./reply.js";
import type { Endpoint } from "./route.js";
import type { ChatErrorBody } from "./wires.js";

/** One request and what the provider did with it. */
export interface Exchange {
  seq: number;
  /** `now()` when the request arrived, in ms. */
  at: number;
  /** Wall-clock time taken to answer, in ms. */
  ms: number;
  method: string;
  path: string;
  endpoint: Endpoint;
  scenario: string | null;
  options: Record<string, string>;
  apiKey: string | null;
  requestId: string;
  stream: boolean;
  /** The parsed JSON body, or the raw text (cut to 2 KB) when it did not parse. */
  body: unknown;
  /** 0 when the connection was dropped on purpose. */
  status: number;
  /** "replayed": answered from a cassette, `response` being the recorded body (null for a stream). */
  outcome: "message" | "count" | "error" | "dropped" | "replayed";
  /** What was sent, in the wire's shape (a streamed reply as the message it spelled out). */
  response: ResponseMessage | ErrorBody | { input_tokens: number } | ChatCompletion | ChatErrorBody | null;
  usage: Usage | null;
  attempt: number;
  /** On a replay, which of the cassette's exchanges answered (1 for the first). */
  replayed?: number;
}
