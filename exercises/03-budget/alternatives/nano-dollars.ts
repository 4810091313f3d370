// Written blind from the lesson and the contract by a helper who never read the hidden tests.
/**
 * Budget, variant: money counted in whole nano-dollars. Per-token rates are turned
 * into integer nano-dollars (opus input 5e-6 USD = 5000 n$; write = 5/4 of that,
 * read = 1/10), each call's cost is an exact integer, and the state compares spent and
 * limit after rounding both to nano-dollars, in integer arithmetic
 * (10 · spent >= 8 · limit). The public fields stay in USD.
 */

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

const NANO = 1e9;

/** This variant's own unit: whole nano-dollars per token, input then output. */
const NANO_PER_TOKEN: Record<string, { in: number; out: number }> = {
  "claude-opus-5": { in: 5_000, out: 25_000 },
  "claude-sonnet-5": { in: 3_000, out: 15_000 },
  "claude-haiku-4-5": { in: 1_000, out: 5_000 },
};

export const PRICE: Record<string, { in: number; out: number }> = Object.fromEntries(
  Object.entries(NANO_PER_TOKEN).map(([model, n]) => [model, { in: n.in / NANO, out: n.out / NANO }]),
);

const toNano = (usd: number): number => Math.round(usd * NANO);

export class BudgetExceeded extends Error {}

export class Budget {
  limit: number;
  spent = 0;
  calls = 0;
  byModel: Record<string, number> = {};
  private wrapUpSent = false;

  constructor(limitUsd: number) {
    this.limit = limitUsd;
  }

  charge(model: string, usage: Usage): number {
    const rate = NANO_PER_TOKEN[model];
    if (rate === undefined) throw new Error(`unknown model: ${model}`);
    const inN = rate.in;
    const outN = rate.out;
    const writeN = (inN * 5) / 4; // 1.25 x input
    const readN = inN / 10; //       0.10 x input

    const nanos =
      usage.input_tokens * inN +
      usage.output_tokens * outN +
      (usage.cache_creation_input_tokens ?? 0) * writeN +
      (usage.cache_read_input_tokens ?? 0) * readN;

    const usd = nanos / NANO;
    this.spent = (toNano(this.spent) + nanos) / NANO;
    this.calls++;
    this.byModel[model] = (toNano(this.byModel[model] ?? 0) + nanos) / NANO;
    return usd;
  }

  get state(): "ok" | "warn" | "stop" {
    const spent = toNano(this.spent);
    const limit = toNano(this.limit);
    if (spent >= limit) return "stop";
    if (spent * 10 >= limit * 8) return "warn";
    return "ok";
  }

  guard(): string | null {
    switch (this.state) {
      case "stop":
        throw new BudgetExceeded(`Budget limit reached: $${this.spent.toFixed(3)} spent, limit $${this.limit.toFixed(3)}.`);
      case "warn":
        if (this.wrapUpSent) return null;
        this.wrapUpSent = true;
        return "You are close to this task's budget. Finish the current step, then stop and write your final answer.";
      default:
        return null;
    }
  }
}
