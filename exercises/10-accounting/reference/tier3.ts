/**
 * Tier 3: the accounting decorator with the Anthropic SDK. There is no tier 2: wrapping
 * one model call reads the same whether a graph sits above it or not.
 *
 * TypeScript has no `@decorator` for plain functions, so "decorating" a call site means
 * building it through `accounted`:
 *
 *   const summarise = accounted("summariser", "claude-haiku-4-5", (text: string) =>
 *     client.messages.create({ model: "claude-haiku-4-5", max_tokens: 512, messages: [{ role: "user", content: `Summarise:\n${text}` }] }));
 *
 * Every call of `summarise` is then timed and written to the ledger under "summariser".
 */
import Anthropic from "@anthropic-ai/sdk";

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export type MessageStream = ReturnType<Anthropic["messages"]["stream"]>;

/** USD per token: the price list's dollars per million tokens, divided through. */
export const PRICE: Record<string, { in: number; out: number }> = {
  "claude-haiku-4-5": { in: 1 / 1e6, out: 5 / 1e6 },
  "claude-sonnet-5": { in: 3 / 1e6, out: 15 / 1e6 },
  "claude-opus-5": { in: 5 / 1e6, out: 25 / 1e6 },
};
/** Cache writes and reads are priced as multiples of the model's own input rate. */
const WRITE = 1.25;
const READ = 0.1;

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

export class Ledger {
  rows: Row[] = [];

  /** The one design decision: four dollar columns, kept apart so the report can split them. */
  record(label: string, model: string, usage: Usage, ms: number): void {
    const p = Object.hasOwn(PRICE, model) ? PRICE[model] : undefined;
    // Pricing an unknown model at $0 would make a typo free in every report.
    if (p === undefined) throw new Error(`unknown model ${model}: no price to record it at`);
    const tokens = {
      in: usage.input_tokens,
      out: usage.output_tokens,
      cacheWrite: usage.cache_creation_input_tokens ?? 0,
      cacheRead: usage.cache_read_input_tokens ?? 0,
    };
    this.rows.push({
      label, model, ms, ...tokens,
      usdIn: tokens.in * p.in,
      usdOut: tokens.out * p.out,
      usdWrite: tokens.cacheWrite * p.in * WRITE,
      usdRead: tokens.cacheRead * p.in * READ,
    });
  }

  private column(pick: (r: Row) => number): number {
    let s = 0;
    for (const r of this.rows) s += pick(r);
    return s;
  }

  total(): number {
    return this.column((r) => r.usdIn + r.usdOut + r.usdWrite + r.usdRead);
  }

  /** Of all the prompt tokens sent, the fraction served from the cache. Healthy above 0.7. */
  cacheHitRate(): number {
    const prompt = this.column((r) => r.in + r.cacheWrite + r.cacheRead);
    return prompt > 0 ? this.column((r) => r.cacheRead) / prompt : 0;
  }

  /** Which call site spent what: the question a review actually asks. */
  byLabel(): Record<string, { calls: number; usd: number; ms: number }> {
    const out: Record<string, { calls: number; usd: number; ms: number }> = {};
    for (const r of this.rows) {
      const a = out[r.label] ?? (out[r.label] = { calls: 0, usd: 0, ms: 0 });
      a.calls++;
      a.usd += r.usdIn + r.usdOut + r.usdWrite + r.usdRead;
      a.ms += r.ms;
    }
    return out;
  }

  /** The report to read before changing anything, rounded as the chapter prints it. */
  whereTheMoneyWent() {
    const total = this.total();
    const share = (pick: (r: Row) => number) => (total > 0 ? round(this.column(pick) / total, 3) : 0);
    return {
      totalUsd: round(total, 4),
      shareOutput: share((r) => r.usdOut),
      shareUncachedInput: share((r) => r.usdIn),
      shareCacheWrite: share((r) => r.usdWrite),
      shareCacheRead: share((r) => r.usdRead),
      cacheHitRate: round(this.cacheHitRate(), 3),
    };
  }
}

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;

export const LEDGER = new Ledger();

/** Milliseconds on the clock the tests (and profilers) can drive. */
const now = () => performance.now();
const ZERO: Usage = { input_tokens: 0, output_tokens: 0 };

export function accounted<A extends unknown[]>(
  label: string,
  model: string,
  fn: (...a: A) => Promise<Anthropic.Message>,
  ledger: Ledger = LEDGER,
): (...a: A) => Promise<Anthropic.Message> {
  return async function accountedCall(...args: A) {
    const t0 = now();
    let message: Anthropic.Message;
    try {
      message = await fn(...args);
    } catch (err) {
      // A 429 or 529 carries no usage and is not billed, but it was a real attempt: a
      // retry storm must show up as rows. The same error goes on, so the retry can read it.
      ledger.record(label, model, ZERO, now() - t0);
      throw err;
    }
    // now() after the await: the promise settling is the call ending.
    ledger.record(label, model, message.usage, now() - t0);
    return message;
  };
}

export function accountedStream<A extends unknown[]>(
  label: string,
  model: string,
  fn: (...a: A) => MessageStream,
  ledger: Ledger = LEDGER,
): (...a: A) => Promise<Anthropic.Message> {
  return async function accountedStreamCall(...args: A) {
    const t0 = now();
    const stream = fn(...args);
    let final: Anthropic.Message;
    try {
      // message_start says output_tokens: 1; the real count comes with the last event,
      // so drain the stream and read the final message.
      final = await stream.finalMessage();
    } catch (err) {
      // A stream that died part-way had already reported its input in message_start.
      ledger.record(label, model, stream.currentMessage?.usage ?? ZERO, now() - t0);
      throw err;
    }
    ledger.record(label, model, final.usage, now() - t0);
    return final;
  };
}
