/**
 * Exercise 3: the token budget. A running ledger charged after every model call, with
 * a soft signal the model can see (a wrap-up note, once, from 80 %) and a hard stop no
 * reply can talk its way past (BudgetExceeded, from 100 %).
 */

/** The SDK's usage object, as much of it as pricing needs. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

const perMillion = (input: number, output: number) => ({ in: input / 1e6, out: output / 1e6 });

/** USD per token, written as dollars per million tokens. */
export const PRICE: Record<string, { in: number; out: number }> = {
  "claude-opus-5": perMillion(5, 25),
  "claude-sonnet-5": perMillion(3, 15),
  "claude-haiku-4-5": perMillion(1, 5),
};

/** Cache writes and reads are billed as multiples of the model's input price. */
const CACHE_WRITE = 1.25;
const CACHE_READ = 0.1;
/** Share of the limit from which the run is told to wrap up. */
const WARN_AT = 0.8;

const WRAP_UP =
  "Budget note: 80% of this run's budget is spent. Finish the step you are on and start nothing new. " +
  "If the task cannot be completed, say exactly what is done and what is still missing.";

export class BudgetExceeded extends Error {
  override name = "BudgetExceeded";
}

export class Budget {
  limit: number;
  spent = 0;
  calls = 0;
  byModel: Record<string, number> = {};
  private warned = false;

  constructor(limitUsd: number) {
    this.limit = limitUsd;
  }

  /** Adds one call's cost to the ledger and returns it, in USD. */
  charge(model: string, usage: Usage): number {
    const price = PRICE[model];
    if (!price) throw new Error(`No price known for model "${model}"; add it to PRICE.`);
    const cost =
      usage.input_tokens * price.in +
      usage.output_tokens * price.out +
      (usage.cache_creation_input_tokens ?? 0) * price.in * CACHE_WRITE +
      (usage.cache_read_input_tokens ?? 0) * price.in * CACHE_READ;
    this.spent += cost;
    this.calls += 1;
    this.byModel[model] = (this.byModel[model] ?? 0) + cost;
    return cost;
  }

  get state(): "ok" | "warn" | "stop" {
    const used = this.spent / this.limit;
    if (used >= 1) return "stop";
    return used >= WARN_AT ? "warn" : "ok";
  }

  /** Called once per turn: throws at the limit, hands out the wrap-up note once, else null. */
  guard(): string | null {
    const state = this.state;
    if (state === "stop") {
      throw new BudgetExceeded(`Budget exhausted: spent $${this.spent.toFixed(2)} of the $${this.limit.toFixed(2)} limit.`);
    }
    if (state === "warn" && !this.warned) {
      this.warned = true;
      return WRAP_UP;
    }
    return null;
  }
}
