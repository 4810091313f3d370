/**
 * Exercise 10: the token-accounting decorator. Replace each `throw` with your code; keep the
 * exported names and signatures as they are (the hidden tests import them).
 */
import Anthropic from "@anthropic-ai/sdk";

/** The SDK's usage object, as much of it as pricing needs. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** What `client.messages.stream(…)` returns. */
export type MessageStream = ReturnType<Anthropic["messages"]["stream"]>;

/** USD per token. */
/** USD per token: the price list's dollars per million tokens, divided through. */
export const PRICE: Record<string, { in: number; out: number }> = {
  "claude-haiku-4-5": { in: 1 / 1e6, out: 5 / 1e6 },
  "claude-sonnet-5": { in: 3 / 1e6, out: 15 / 1e6 },
  "claude-opus-5": { in: 5 / 1e6, out: 25 / 1e6 },
};

/** One model call: who made it, how long it took, its four token counts and their four prices. */
export interface Row {
  label: string;
  model: string;
  ms: number;
  in: number;
  out: number;
  cacheWrite: number;
  cacheRead: number;
  usdIn: number;
  usdOut: number;
  usdWrite: number;
  usdRead: number;
}

export class Ledger {
  rows: Row[] = [];

  /** Appends one row; cache writes cost 1.25× the input price, reads 0.10×. Throws for a model with no price. */
  record(label: string, model: string, usage: Usage, ms: number): void {
    throw new Error("not implemented");
  }

  /** USD over every row and all four columns. */
  total(): number {
    throw new Error("not implemented");
  }

  /** Cache reads over (reads + writes + uncached input); 0 when there was no input. */
  cacheHitRate(): number {
    throw new Error("not implemented");
  }

  /** Per label: how many calls, their USD and their milliseconds. */
  byLabel(): Record<string, { calls: number; usd: number; ms: number }> {
    throw new Error("not implemented");
  }

  /** The total, each column's share of it, and the cache hit rate. */
  whereTheMoneyWent(): {
    totalUsd: number;
    shareOutput: number;
    shareUncachedInput: number;
    shareCacheWrite: number;
    shareCacheRead: number;
    cacheHitRate: number;
  } {
    throw new Error("not implemented");
  }
}

/** The default ledger. */
export const LEDGER = new Ledger();

/** Wraps a model call: times it, records its usage under `label` (zero tokens if it throws), returns its result. */
export function accounted<A extends unknown[]>(
  label: string,
  model: string,
  fn: (...a: A) => Promise<Anthropic.Message>,
  ledger: Ledger = LEDGER,
): (...a: A) => Promise<Anthropic.Message> {
  throw new Error("not implemented");
}

/** Wraps a streamed call: waits for the final message and records ITS usage. */
export function accountedStream<A extends unknown[]>(
  label: string,
  model: string,
  fn: (...a: A) => MessageStream,
  ledger: Ledger = LEDGER,
): (...a: A) => Promise<Anthropic.Message> {
  throw new Error("not implemented");
}
