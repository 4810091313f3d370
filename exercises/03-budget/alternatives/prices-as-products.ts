/**
 * ALTERNATIVE: a correct budget written another way. Prices are written as products
 * (5 * 1e-6, one unit in the last place away from 5e-6), the thresholds are compared as
 * spent >= share * limit, the cache fields may be absent, and the stop message prints the
 * raw floats.
 */

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

const MILLIONTH = 1e-6;

export const PRICE: Record<string, { in: number; out: number }> = {
  "claude-opus-5": { in: 5 * MILLIONTH, out: 25 * MILLIONTH },
  "claude-sonnet-5": { in: 3 * MILLIONTH, out: 15 * MILLIONTH },
  "claude-haiku-4-5": { in: 1 * MILLIONTH, out: 5 * MILLIONTH },
};

export class BudgetExceeded extends Error {}

export class Budget {
  limit: number;
  spent = 0;
  calls = 0;
  byModel: Record<string, number> = {};
  private wrapUpGiven = false;

  constructor(limitUsd: number) {
    this.limit = limitUsd;
  }

  charge(model: string, usage: Usage): number {
    const { in: input, out } = PRICE[model]!;
    const written = usage.cache_creation_input_tokens || 0;
    const read = usage.cache_read_input_tokens || 0;
    const cost = input * (usage.input_tokens + 1.25 * written + 0.1 * read) + out * usage.output_tokens;
    this.spent += cost;
    this.calls++;
    this.byModel[model] = (this.byModel[model] || 0) + cost;
    return cost;
  }

  get state(): "ok" | "warn" | "stop" {
    if (this.spent >= this.limit) return "stop";
    if (this.spent >= 0.8 * this.limit) return "warn";
    return "ok";
  }

  guard(): string | null {
    switch (this.state) {
      case "stop":
        throw new BudgetExceeded(`spent $${this.spent} of a $${this.limit} budget`);
      case "warn":
        if (this.wrapUpGiven) return null;
        this.wrapUpGiven = true;
        return "You are close to this run's budget: wrap up now and report what is left undone.";
      default:
        return null;
    }
  }
}
