/**
 * Tier 3: the token budget in TypeScript, with the SDK's usage object as input.
 *
 * Three members do the work: `charge` prices each call and adds it to the total,
 * `state` reads that total as ok, warn or stop, and `guard` is the loop's question
 * once a turn: carry on, wrap up, or halt?
 *
 * In the loop:
 *
 *   const reply = await client.messages.create(...);
 *   budget.charge(reply.model, reply.usage);
 *   ...
 *   const note = budget.guard();          // may throw BudgetExceeded: catch it and
 *   if (note) messages.push(...note...);  // return a partial report, not a crash
 */

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

const perMillion = (input: number, output: number) => ({ in: input / 1e6, out: output / 1e6 });

/** USD per token: $5/$25, $3/$15 and $1/$5 per million, input/output. */
export const PRICE: Record<string, { in: number; out: number }> = {
  "claude-opus-5": perMillion(5, 25),
  "claude-sonnet-5": perMillion(3, 15),
  "claude-haiku-4-5": perMillion(1, 5),
};

export class BudgetExceeded extends Error {
  override name = "BudgetExceeded";
}

export class Budget {
  limit: number;
  spent = 0;
  calls = 0;
  byModel: Record<string, number> = {};
  /** The wrap-up text is handed out once; this remembers that it was. */
  private warned = false;

  constructor(limitUsd: number) {
    this.limit = limitUsd;
  }

  charge(model: string, usage: Usage): number {
    const price = PRICE[model];
    // An unknown model priced at zero would make the budget silently infinite.
    if (!price) throw new Error(`No price known for model "${model}"; add it to PRICE.`);

    const cost =
      usage.input_tokens * price.in + // uncached input: the prompt past the cached prefix
      usage.output_tokens * price.out +
      // Writing a prefix into the cache pays for the prefill plus storing its K/V
      // vectors: a little more than plain input.
      (usage.cache_creation_input_tokens ?? 0) * price.in * 1.25 +
      // Reading it back skips the prefill arithmetic and only moves stored vectors:
      // far less than plain input, but not free.
      (usage.cache_read_input_tokens ?? 0) * price.in * 0.1;

    this.spent += cost;
    this.calls += 1;
    this.byModel[model] = (this.byModel[model] ?? 0) + cost;
    return cost;
  }

  get state(): "ok" | "warn" | "stop" {
    const used = this.spent / this.limit;
    return used < 0.8 ? "ok" : used < 1 ? "warn" : "stop";
  }

  guard(): string | null {
    // The hard stop: not a message to the model, which cannot see the bill and could
    // not be trusted to obey one. The caller catches this and reports what it has.
    if (this.state === "stop") {
      throw new BudgetExceeded(`Budget exhausted: spent $${this.spent.toFixed(2)} of the $${this.limit.toFixed(2)} limit.`);
    }
    // The soft signal: text the model CAN read, so it finishes instead of being cut
    // off mid-edit. Once; repeating it only spends context on the same words.
    if (this.state === "warn" && !this.warned) {
      this.warned = true;
      return (
        "Budget note: 80% of this run's budget is spent. Finish the step you are on and start nothing new. " +
        "If the task cannot be completed, say exactly what is done and what is still missing."
      );
    }
    return null;
  }
}
