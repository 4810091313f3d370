/**
 * The one way out to a real endpoint in a live run: a relay in the lab's own process that adds
 * the real key (workers never hold it), counts the money from the usage each answer reports,
 * and refuses a request that could take the spend past the cap before it is sent. A request's
 * worst case is priced as every byte of its body one input token (a token is at least a byte),
 * plus the API's own tool prompt, all at the cache-write rate, plus every max_tokens token of
 * output: so the cap holds whatever the model answers.
 */
import type { Exchange } from "../../provider/index.js";
import { CACHE_WRITE, PRICES, usdOf, type TokenCounts } from "../pricing.js";
import { startRelay, type Admission, type Relay } from "./relay.js";

export interface GateOptions {
  /** Base URL of the real endpoint. */
  upstream: string;
  /** Sent as x-api-key in place of the client's key; null passes the client's on (a local server ignores it). */
  apiKey: string | null;
  /** The spending cap, in USD, for everything this gate lets through. */
  maxUsd: number;
}

export interface Spend {
  usd: number;
  /** Model calls that came back with a usage. */
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

export interface Gate {
  /** The base URL workers are given in place of the endpoint's. */
  readonly url: string;
  readonly upstream: string;
  readonly maxUsd: number;
  spend(): Spend;
  /** The sentence of the first request refused at the cap, if any was. */
  readonly capped: string | null;
  close(): Promise<void>;
}

/** Tokens the API adds to a prompt that offers tools (its own tool instructions), rounded up. */
export const TOOL_PROMPT_TOKENS = 1_000;
/** The dearest known prices stand in for a model the table does not know. */
const DEAREST = PRICES["claude-opus-5"]!;

export const GATE_MESSAGES = {
  capped: (worstUsd: number, spentUsd: number, maxUsd: number) =>
    `lab --live held this request back: it could cost up to $${worstUsd.toFixed(4)}, and $${spentUsd.toFixed(4)} of the --max-usd $${maxUsd.toFixed(2)} is spent or promised.`,
} as const;

/** The most a request can cost: its body's bytes and the tool prompt as input, max_tokens as output. */
export function worstCaseUsd(body: unknown, bytes: number): number {
  const { model, max_tokens: maxTokens } = (body ?? {}) as { model?: unknown; max_tokens?: unknown };
  const price = (typeof model === "string" ? PRICES[model] : undefined) ?? DEAREST;
  const output = typeof maxTokens === "number" && maxTokens > 0 ? maxTokens : 0;
  return (bytes + TOOL_PROMPT_TOKENS) * price.in * CACHE_WRITE + output * price.out;
}

export async function openGate(options: GateOptions): Promise<Gate> {
  const total: Spend = { usd: 0, calls: 0, inputTokens: 0, outputTokens: 0 };
  let promised = 0;
  let capped: string | null = null;

  function admit(body: unknown, bytes: number): Admission {
    const worst = worstCaseUsd(body, bytes);
    if (total.usd + promised + worst > options.maxUsd) {
      const refused = GATE_MESSAGES.capped(worst, total.usd + promised, options.maxUsd);
      capped ??= refused;
      return { refused };
    }
    promised += worst;
    return {
      settle(exchange: Exchange) {
        promised -= worst;
        const usage = exchange.usage as TokenCounts | null;
        if (!usage) return;
        const model = (body as { model?: unknown } | null)?.model;
        total.usd += usdOf(usage, typeof model === "string" && PRICES[model] ? model : "claude-opus-5");
        total.calls += 1;
        total.inputTokens += usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
        total.outputTokens += usage.output_tokens;
      },
    };
  }

  const relay: Relay = await startRelay({
    upstream: options.upstream,
    admit,
    authorize(headers) {
      if (options.apiKey === null) return;
      headers.delete("authorization");
      headers.set("x-api-key", options.apiKey);
    },
  });
  return {
    url: relay.url,
    upstream: options.upstream,
    maxUsd: options.maxUsd,
    spend: () => ({ ...total }),
    get capped() {
      return capped;
    },
    close: () => relay.close(),
  };
}
