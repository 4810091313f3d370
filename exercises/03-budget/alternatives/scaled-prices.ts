// Written blind from the lesson and the contract by a helper who never read the hidden tests.
/**
 * Budget, variant: prices written as multiples of 1e-6, the four terms summed in the
 * reverse order (cache read, cache write, output, input), cache fields read with a
 * typeof check, and thresholds compared as products (spent >= 0.8 · limit) with a
 * relative tolerance of one part in a billion, so float noise from the price literals
 * (5 * 1e-6 is not the same double as 5e-6) cannot move an exact 80 % or 100 % charge
 * below its threshold.
 */

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

const PER_MILLION = 1e-6;

export const PRICE: Record<string, { in: number; out: number }> = {
  "claude-opus-5": { in: 5 * PER_MILLION, out: 25 * PER_MILLION },
  "claude-sonnet-5": { in: 3 * PER_MILLION, out: 15 * PER_MILLION },
  "claude-haiku-4-5": { in: 1 * PER_MILLION, out: 5 * PER_MILLION },
};

const CACHE_WRITE = 1.25;
const CACHE_READ = 0.1;
const SLACK = 1 - 1e-9;

export class BudgetExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BudgetExceeded";
  }
}

const count = (n: number | null | undefined): number => (typeof n === "number" ? n : 0);

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
    const price = PRICE[model];
    if (!price) throw new Error(`no price for model "${model}"`);
    let cost = count(usage.cache_read_input_tokens) * price.in * CACHE_READ;
    cost += count(usage.cache_creation_input_tokens) * price.in * CACHE_WRITE;
    cost += usage.output_tokens * price.out;
    cost += usage.input_tokens * price.in;

    this.spent += cost;
    this.calls += 1;
    this.byModel[model] = (this.byModel[model] ?? 0) + cost;
    return cost;
  }

  get state(): "ok" | "warn" | "stop" {
    if (this.spent >= this.limit * SLACK) return "stop";
    if (this.spent >= 0.8 * this.limit * SLACK) return "warn";
    return "ok";
  }

  guard(): string | null {
    const s = this.state;
    if (s === "stop") {
      throw new BudgetExceeded(
        `budget exceeded: spent $${this.spent.toFixed(4)} of a $${this.limit.toFixed(4)} limit`,
      );
    }
    if (s === "warn" && !this.warned) {
      this.warned = true;
      return (
        `Budget notice: $${this.spent.toFixed(2)} of $${this.limit.toFixed(2)} used. ` +
        "Wrap up now: finish the step you are on, then give your final answer and list anything left undone."
      );
    }
    return null;
  }
}
