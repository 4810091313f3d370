// Written blind from the lesson by a helper who never read the hidden tests: a correct solution of its own, and the base its blind mutants are diffs of.
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** The price list quotes dollars per million tokens; a token costs that over a million. */
const MILLION = 1_000_000;

export const PRICE: Record<string, { in: number; out: number }> = {
  "claude-opus-5": { in: 5 / MILLION, out: 25 / MILLION },
  "claude-sonnet-5": { in: 3 / MILLION, out: 15 / MILLION },
  "claude-haiku-4-5": { in: 1 / MILLION, out: 5 / MILLION },
};

export class BudgetExceeded extends Error {}

export class Budget {
  limit: number;
  spent = 0;
  calls = 0;
  byModel: Record<string, number> = {};
  private warned = false;

  constructor(limitUsd: number) {
    this.limit = limitUsd;
  }

  charge(model: string, usage: Usage): number {
    const p = PRICE[model];
    if (!p) throw new Error(`unknown model ${model}`);
    const cw = usage.cache_creation_input_tokens ?? 0;
    const cr = usage.cache_read_input_tokens ?? 0;
    const cost =
      usage.input_tokens * p.in +
      usage.output_tokens * p.out +
      cw * p.in * 1.25 +
      cr * p.in * 0.1;
    this.spent += cost;
    this.calls += 1;
    this.byModel[model] = (this.byModel[model] ?? 0) + cost;
    return cost;
  }

  get state(): "ok" | "warn" | "stop" {
    // rounded to 9 decimals so float noise (800000 * 1e-6 = 0.7999999999999999) does not decide the threshold
    const ratio = Math.round((this.spent / this.limit) * 1e9) / 1e9;
    if (ratio >= 1) return "stop";
    if (ratio >= 0.8) return "warn";
    return "ok";
  }

  guard(): string | null {
    const s = this.state;
    if (s === "stop") {
      throw new BudgetExceeded(`budget exceeded: spent $${this.spent.toFixed(4)} of $${this.limit.toFixed(4)}`);
    }
    if (s === "warn" && !this.warned) {
      this.warned = true;
      return "80% of the budget is spent. Finish the current step and give your final answer now.";
    }
    return null;
  }
}
