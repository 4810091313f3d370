/**
 * ALTERNATIVE: a correct retry written another way. Backoff waits use "full jitter": the
 * whole sleep is drawn from [0, wait], which spreads clients furthest. A retry-after is the
 * server's floor, so that wait is slept in full with the jitter added on top.
 */
import Anthropic from "@anthropic-ai/sdk";

export interface RetryOptions {
  maxAttempts?: number;
  base?: number;
  cap?: number;
  sleep?: (seconds: number) => Promise<void>;
  random?: () => number;
}

const RETRIED_STATUS = (status: number) => status === 429 || status >= 500;

export async function callWithRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const maxAttempts = opts.maxAttempts ?? 5;
  const { base = 1, cap = 60, random = Math.random } = opts;
  const sleep = opts.sleep ?? ((s: number) => new Promise<void>((done) => setTimeout(done, 1000 * s)));
  let lastError: unknown = new Error("maxAttempts must be at least 1");
  for (let n = 0; n < maxAttempts; n++) {
    if (n > 0) {
      const asked = lastError instanceof Anthropic.RateLimitError ? Number(lastError.headers.get("retry-after")) : NaN;
      const backoff = Math.min(cap, base * 2 ** (n - 1));
      await sleep(asked > 0 ? asked * (1 + 0.3 * random()) : backoff * random());
    }
    try {
      return await fn();
    } catch (err) {
      const retried = err instanceof Anthropic.APIConnectionError || (err instanceof Anthropic.APIError && RETRIED_STATUS(err.status ?? 0));
      if (!retried) throw err;
      lastError = err;
    }
  }
  throw lastError;
}
