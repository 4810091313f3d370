/** The chapter's prices, for tests that turn a usage into dollars (the budget exercise teaches the same table). */

/** The price list quotes dollars per million tokens; a token costs that over a million. */
const MILLION = 1_000_000;

/** USD per token. */
export const PRICES: Record<string, { in: number; out: number }> = {
  "claude-opus-5": { in: 5 / MILLION, out: 25 / MILLION },
  "claude-sonnet-5": { in: 3 / MILLION, out: 15 / MILLION },
  "claude-haiku-4-5": { in: 1 / MILLION, out: 5 / MILLION },
};

/** A cache write costs 1.25x the input price, a cache read 0.10x. */
export const CACHE_WRITE = 1.25;
export const CACHE_READ = 0.1;

export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** One call's cost in USD at `model`'s prices (claude-opus-5 for a model the table does not know). */
export function usdOf(usage: TokenCounts, model = "claude-opus-5"): number {
  const price = PRICES[model] ?? PRICES["claude-opus-5"]!;
  return (
    usage.input_tokens * price.in +
    usage.output_tokens * price.out +
    (usage.cache_creation_input_tokens ?? 0) * price.in * CACHE_WRITE +
    (usage.cache_read_input_tokens ?? 0) * price.in * CACHE_READ
  );
}
