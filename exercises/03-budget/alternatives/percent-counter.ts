// Written blind from the lesson and the contract by a helper who never read the hidden tests.
/**
 * Budget, variant: prices as literals, the cost built from an array of [tokens, rate]
 * terms and summed with reduce, byModel updated with ||, the state computed from a
 * percentage rounded to 1e-9 % (so 79.99999999999999 % reads as 80 %), and the
 * "once" rule kept as a counter of wrap-up texts handed out.
 */

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export const PRICE: Record<string, { in: number; out: number }> = {
  "claude-haiku-4-5": { in: 0.000001, out: 0.000005 },
  "claude-sonnet-5": { in: 0.000003, out: 0.000015 },
  "claude-opus-5": { in: 0.000005, out: 0.000025 },
};

export class BudgetExceeded extends Error {
  override name = "BudgetExceeded";
}

export class Budget {
  limit: number;
  spent = 0;
  calls = 0;
  byModel: Record<string, number> = {};
  private wrapUps = 0;

  constructor(limitUsd: number) {
    this.limit = limitUsd;
  }

  charge(model: string, usage: Usage): number {
    const p = PRICE[model];
    if (!p) throw new Error(`Budget.charge: unpriced model ${model}`);
    const terms: Array<[number, number]> = [
      [usage.input_tokens, p.in],
      [usage.cache_creation_input_tokens || 0, p.in * 1.25],
      [usage.cache_read_input_tokens || 0, p.in / 10],
      [usage.output_tokens, p.out],
    ];
    const usd = terms.reduce((sum, [tokens, rate]) => sum + tokens * rate, 0);
    this.calls = this.calls + 1;
    this.spent = this.spent + usd;
    this.byModel[model] = (this.byModel[model] || 0) + usd;
    return usd;
  }

  private percent(): number {
    return Math.round((this.spent / this.limit) * 100 * 1e9) / 1e9;
  }

  get state(): "ok" | "warn" | "stop" {
    const pct = this.percent();
    return pct >= 100 ? "stop" : pct >= 80 ? "warn" : "ok";
  }

  guard(): string | null {
    const state = this.state;
    if (state === "stop") {
      throw new BudgetExceeded(`spent ${this.spent.toFixed(4)} USD, limit ${this.limit.toFixed(4)} USD`);
    }
    if (state !== "warn" || this.wrapUps > 0) return null;
    this.wrapUps++;
    return `About ${Math.floor(this.percent())}% of the budget is used. Wrap up: complete what you started and answer now.`;
  }
}
