// Written blind from the lesson by a helper who never read the hidden tests.
/**
 * Accounting, variant: one loop computes every sum into an accumulator object;
 * byLabel goes through a Map; the decorators are written with promise .then(onOk,
 * onError) handlers and Date.now(); both share one timing helper.
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

type Money = { calls: number; usd: number; ms: number };

function priceOf(model: string): { in: number; out: number } {
  const p = Object.prototype.hasOwnProperty.call(PRICE, model) ? PRICE[model] : undefined;
  if (p === undefined) throw new Error("Ledger: unknown model " + model + " (not in PRICE)");
  return p;
}

export class Ledger {
  rows: Row[] = [];

  record(label: string, model: string, usage: Usage, ms: number): void {
    const { in: pin, out: pout } = priceOf(model);
    const n = (x: number | null | undefined) => (typeof x === "number" ? x : 0);
    const row: Row = {
      label,
      model,
      ms,
      in: n(usage.input_tokens),
      out: n(usage.output_tokens),
      cacheWrite: n(usage.cache_creation_input_tokens),
      cacheRead: n(usage.cache_read_input_tokens),
      usdIn: 0,
      usdOut: 0,
      usdWrite: 0,
      usdRead: 0,
    };
    row.usdIn = row.in * pin;
    row.usdOut = row.out * pout;
    row.usdWrite = row.cacheWrite * pin * 1.25;
    row.usdRead = row.cacheRead * pin * 0.1;
    this.rows.push(row);
  }

  private sums() {
    const s = { usdIn: 0, usdOut: 0, usdWrite: 0, usdRead: 0, in: 0, cacheWrite: 0, cacheRead: 0 };
    for (const r of this.rows) {
      s.usdIn += r.usdIn;
      s.usdOut += r.usdOut;
      s.usdWrite += r.usdWrite;
      s.usdRead += r.usdRead;
      s.in += r.in;
      s.cacheWrite += r.cacheWrite;
      s.cacheRead += r.cacheRead;
    }
    return s;
  }

  total(): number {
    const s = this.sums();
    return s.usdIn + s.usdOut + s.usdWrite + s.usdRead;
  }

  cacheHitRate(): number {
    const s = this.sums();
    const denominator = s.cacheRead + s.cacheWrite + s.in;
    return denominator > 0 ? s.cacheRead / denominator : 0;
  }

  byLabel(): Record<string, Money> {
    const m = new Map<string, Money>();
    for (const r of this.rows) {
      const prev = m.get(r.label) ?? { calls: 0, usd: 0, ms: 0 };
      m.set(r.label, {
        calls: prev.calls + 1,
        usd: prev.usd + r.usdIn + r.usdOut + r.usdWrite + r.usdRead,
        ms: prev.ms + r.ms,
      });
    }
    return Object.fromEntries(m);
  }

  whereTheMoneyWent(): {
    totalUsd: number;
    shareOutput: number;
    shareUncachedInput: number;
    shareCacheWrite: number;
    shareCacheRead: number;
    cacheHitRate: number;
  } {
    const s = this.sums();
    const total = s.usdIn + s.usdOut + s.usdWrite + s.usdRead;
    const of = (x: number) => (total > 0 ? x / total : 0);
    return {
      totalUsd: total,
      shareOutput: of(s.usdOut),
      shareUncachedInput: of(s.usdIn),
      shareCacheWrite: of(s.usdWrite),
      shareCacheRead: of(s.usdRead),
      cacheHitRate: this.cacheHitRate(),
    };
  }
}

export const LEDGER = new Ledger();

const NO_USAGE: Usage = { input_tokens: 0, output_tokens: 0 };

/** Runs start(), times it until its promise settles, records via onOk/onFail. */
function timed<T>(
  start: () => Promise<T>,
  onOk: (value: T, ms: number) => void,
  onFail: (ms: number) => void,
): Promise<T> {
  const t0 = Date.now();
  let p: Promise<T>;
  try {
    p = start();
  } catch (err) {
    p = Promise.reject(err);
  }
  return p.then(
    (value) => {
      onOk(value, Date.now() - t0);
      return value;
    },
    (err: unknown) => {
      try {
        onFail(Date.now() - t0);
      } catch {
        // keep the original error
      }
      throw err;
    },
  );
}

export function accounted<A extends unknown[]>(
  label: string,
  model: string,
  fn: (...a: A) => Promise<Anthropic.Message>,
  ledger: Ledger = LEDGER,
): (...a: A) => Promise<Anthropic.Message> {
  return (...args: A) =>
    timed(
      () => fn(...args),
      (msg, ms) => ledger.record(label, model, msg.usage, ms),
      (ms) => ledger.record(label, model, NO_USAGE, ms),
    );
}

export function accountedStream<A extends unknown[]>(
  label: string,
  model: string,
  fn: (...a: A) => MessageStream,
  ledger: Ledger = LEDGER,
): (...a: A) => Promise<Anthropic.Message> {
  return (...args: A) => {
    let stream: MessageStream | null = null;
    return timed(
      () => {
        stream = fn(...args);
        return stream.finalMessage();
      },
      (msg, ms) => ledger.record(label, model, msg.usage, ms),
      (ms) => {
        const reported = (stream as MessageStream | null)?.currentMessage?.usage;
        ledger.record(label, model, reported ?? NO_USAGE, ms);
      },
    );
  };
}
