/**
 * Exercise 3: the token budget. Replace each `throw` with your code; keep the exported
 * names and signatures as they are (the hidden tests import them).
 */

/** The SDK's usage object, as much of it as pricing needs. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** USD per token, input and output. Fill in all three models. */
export const PRICE: Record<string, { in: number; out: number }> = {
  // "claude-opus-5": { in: …, out: … },
};

/** Thrown by `guard` once the limit is reached. */
export class BudgetExceeded extends Error {}

export class Budget {
  /** The limit in USD. */
  limit: number;
  /** USD charged so far. */
  spent = 0;
  /** How many calls were charged. */
  calls = 0;
  /** USD charged per model name. */
  byModel: Record<string, number> = {};

  constructor(limitUsd: number) {
    this.limit = limitUsd;
  }

  /**
   * Prices one call's usage at `model`'s rates, adds it to spent, calls and byModel,
   * and returns its cost. Cache writes cost 1.25× the input price, cache reads 0.10×;
   * a null or missing cache field counts as 0.
   */
  charge(model: string, usage: Usage): number {
    throw new Error("not implemented");
  }

  /** "ok" below 80 % of the limit, "warn" from 80 %, "stop" from 100 %. */
  get state(): "ok" | "warn" | "stop" {
    throw new Error("not implemented");
  }

  /**
   * Called once per turn. At "stop", throws BudgetExceeded with a message naming what
   * was spent and the limit. At "warn", returns a wrap-up instruction for the model the
   * first time only. Otherwise returns null.
   */
  guard(): string | null {
    throw new Error("not implemented");
  }
}
