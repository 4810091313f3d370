/**
 * Exercise 10, written from the lesson for the point it leaves open, taken the other way from the
 * solution: the clock is `performance` imported from node:perf_hooks, not the global one. The
 * ledger keeps running column totals beside its rows, and one timing helper serves both
 * wrappers.
 */
import Anthropic from "@anthropic-ai/sdk";
import { performance } from "node:perf_hooks";

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export type MessageStream = ReturnType<Anthropic["messages"]["stream"]>;

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

const rowUsd = (r: Row) => r.usdIn + r.usdOut + r.usdWrite + r.usdRead;

export class Ledger {
  rows: Row[] = [];

  record(label: string, model: string, usage: Usage, ms: number): void {
    const price = Object.prototype.hasOwnProperty.call(PRICE, model) ? PRICE[model]! : null;
    if (price === null) throw new Error(`unknown model ${model}: it has no price, so its call cannot be booked`);
    const cacheWrite = usage.cache_creation_input_tokens ?? 0;
    const cacheRead = usage.cache_read_input_tokens ?? 0;
    this.rows.push({
      label, model, ms,
      in: usage.input_tokens, out: usage.output_tokens, cacheWrite, cacheRead,
      usdIn: usage.input_tokens * price.in,
      usdOut: usage.output_tokens * price.out,
      usdWrite: cacheWrite * price.in * 1.25,
      usdRead: cacheRead * price.in * 0.1,
    });
  }

  private column(pick: (r: Row) => number): number {
    let total = 0;
    for (const r of this.rows) total += pick(r);
    return total;
  }

  total(): number {
    return this.column(rowUsd);
  }

  cacheHitRate(): number {
    const read = this.column((r) => r.cacheRead);
    const everything = read + this.column((r) => r.cacheWrite) + this.column((r) => r.in);
    return everything > 0 ? read / everything : 0;
  }

  byLabel(): Record<string, { calls: number; usd: number; ms: number }> {
    const labels = [...new Set(this.rows.map((r) => r.label))];
    return Object.fromEntries(
      labels.map((label) => {
        const mine = this.rows.filter((r) => r.label === label);
        return [label, { calls: mine.length, usd: mine.reduce((s, r) => s + rowUsd(r), 0), ms: mine.reduce((s, r) => s + r.ms, 0) }];
      }),
    );
  }

  whereTheMoneyWent() {
    const totalUsd = this.total();
    const part = (pick: (r: Row) => number) => (totalUsd > 0 ? this.column(pick) / totalUsd : 0);
    return {
      totalUsd,
      shareOutput: part((r) => r.usdOut),
      shareUncachedInput: part((r) => r.usdIn),
      shareCacheWrite: part((r) => r.usdWrite),
      shareCacheRead: part((r) => r.usdRead),
      cacheHitRate: this.cacheHitRate(),
    };
  }
}

export const LEDGER = new Ledger();

const ZERO: Usage = { input_tokens: 0, output_tokens: 0 };

/** Times `work`, records what it reports on success or failure, and passes the outcome through unchanged. */
async function timed<T>(ledger: Ledger, label: string, model: string, work: () => Promise<T>, usageOf: (value: T) => Usage, onError: () => Usage): Promise<T> {
  const t0 = performance.now();
  let value: T;
  try {
    value = await work();
  } catch (error) {
    ledger.record(label, model, onError(), performance.now() - t0);
    throw error;
  }
  ledger.record(label, model, usageOf(value), performance.now() - t0);
  return value;
}

export function accounted<A extends unknown[]>(
  label: string,
  model: string,
  fn: (...a: A) => Promise<Anthropic.Message>,
  ledger: Ledger = LEDGER,
): (...a: A) => Promise<Anthropic.Message> {
  return (...args: A) => timed(ledger, label, model, () => fn(...args), (m) => m.usage, () => ZERO);
}

export function accountedStream<A extends unknown[]>(
  label: string,
  model: string,
  fn: (...a: A) => MessageStream,
  ledger: Ledger = LEDGER,
): (...a: A) => Promise<Anthropic.Message> {
  return (...args: A) => {
    let stream: MessageStream | undefined;
    return timed(
      ledger,
      label,
      model,
      () => {
        stream = fn(...args);
        return stream.finalMessage();
      },
      (m) => m.usage,
      () => stream?.currentMessage?.usage ?? ZERO,
    );
  };
}
