/**
 * Mutant stream-failure-free: a stream that fails part-way is booked at zero tokens.
 */
import Anthropic from "@anthropic-ai/sdk";

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export type MessageStream = ReturnType<Anthropic["messages"]["stream"]>;

/** USD per token. */
/** USD per token: the price list's dollars per million tokens, divided through. */
export const PRICE: Record<string, { in: number; out: number }> = {
  "claude-haiku-4-5": { in: 1 / 1e6, out: 5 / 1e6 },
  "claude-sonnet-5": { in: 3 / 1e6, out: 15 / 1e6 },
  "claude-opus-5": { in: 5 / 1e6, out: 25 / 1e6 },
};

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

const NO_USAGE: Usage = { input_tokens: 0, output_tokens: 0 };
const usd = (r: Row) => r.usdIn + r.usdOut + r.usdWrite + r.usdRead;
const sum = (rows: Row[], pick: (r: Row) => number) => rows.reduce((total, r) => total + pick(r), 0);

export class Ledger {
  rows: Row[] = [];

  record(label: string, model: string, usage: Usage, ms: number): void {
    const price = PRICE[model];
    if (!price) throw new Error(`No price for model "${model}": add it to PRICE before recording its calls.`);
    const cacheWrite = usage.cache_creation_input_tokens ?? 0;
    const cacheRead = usage.cache_read_input_tokens ?? 0;
    this.rows.push({
      label,
      model,
      ms,
      in: usage.input_tokens,
      out: usage.output_tokens,
      cacheWrite,
      cacheRead,
      usdIn: usage.input_tokens * price.in,
      usdOut: usage.output_tokens * price.out,
      usdWrite: cacheWrite * price.in * 1.25,
      usdRead: cacheRead * price.in * 0.1,
    });
  }

  total(): number {
    return sum(this.rows, usd);
  }

  cacheHitRate(): number {
    const read = sum(this.rows, (r) => r.cacheRead);
    const all = sum(this.rows, (r) => r.cacheRead + r.cacheWrite + r.in);
    return all === 0 ? 0 : read / all;
  }

  byLabel(): Record<string, { calls: number; usd: number; ms: number }> {
    const out: Record<string, { calls: number; usd: number; ms: number }> = {};
    for (const r of this.rows) {
      const entry = (out[r.label] ??= { calls: 0, usd: 0, ms: 0 });
      entry.calls += 1;
      entry.usd += usd(r);
      entry.ms += r.ms;
    }
    return out;
  }

  whereTheMoneyWent() {
    const total = this.total();
    const share = (pick: (r: Row) => number) => (total === 0 ? 0 : sum(this.rows, pick) / total);
    return {
      totalUsd: total,
      shareOutput: share((r) => r.usdOut),
      shareUncachedInput: share((r) => r.usdIn),
      shareCacheWrite: share((r) => r.usdWrite),
      shareCacheRead: share((r) => r.usdRead),
      cacheHitRate: this.cacheHitRate(),
    };
  }
}

export const LEDGER = new Ledger();

export function accounted<A extends unknown[]>(
  label: string,
  model: string,
  fn: (...a: A) => Promise<Anthropic.Message>,
  ledger: Ledger = LEDGER,
): (...a: A) => Promise<Anthropic.Message> {
  return async (...args: A) => {
    const started = performance.now();
    let message: Anthropic.Message;
    try {
      message = await fn(...args);
    } catch (err) {
      // An error response carries no usage and is not billed, but it was a call.
      ledger.record(label, model, NO_USAGE, performance.now() - started);
      throw err;
    }
    ledger.record(label, model, message.usage, performance.now() - started);
    return message;
  };
}

export function accountedStream<A extends unknown[]>(
  label: string,
  model: string,
  fn: (...a: A) => MessageStream,
  ledger: Ledger = LEDGER,
): (...a: A) => Promise<Anthropic.Message> {
  return async (...args: A) => {
    const started = performance.now();
    const stream = fn(...args);
    let final: Anthropic.Message;
    try {
      // The output count arrives with the last event; only the final message has it.
      final = await stream.finalMessage();
    } catch (err) {
      ledger.record(label, model, NO_USAGE, performance.now() - started);
      throw err;
    }
    ledger.record(label, model, final.usage, performance.now() - started);
    return final;
  };
}
