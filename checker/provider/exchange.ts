/** What the provider records of each request. */
import type { ErrorBody } from "./errors.js";
import type { ResponseMessage, Usage } from "./reply.js";

/** One request and what the provider did with it. */
export interface Exchange {
  seq: number;
  /** `now()` when the request arrived, in ms. */
  at: number;
  /** Wall-clock time taken to answer, in ms. */
  ms: number;
  method: string;
  path: string;
  endpoint: "messages" | "count_tokens" | "unknown";
  scenario: string | null;
  options: Record<string, string>;
  apiKey: string | null;
  requestId: string;
  stream: boolean;
  /** The parsed JSON body, or the raw text (cut to 2 KB) when it did not parse. */
  body: unknown;
  /** 0 when the connection was dropped on purpose. */
  status: number;
  outcome: "message" | "count" | "error" | "dropped";
  response: ResponseMessage | ErrorBody | { input_tokens: number } | null;
  usage: Usage | null;
  attempt: number;
}
