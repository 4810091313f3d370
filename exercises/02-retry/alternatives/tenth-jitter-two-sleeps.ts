// Written blind from the lesson and the contract by a helper who never read the hidden tests.
/**
 * Retry, variant: a for loop that remembers the last error and throws it after the
 * loop; errors sorted by status code (429, >= 500) plus the connection class; jitter
 * drawn from [0, 0.1 · wait] (the bottom of the range the contract accepts); the wait
 * and the jitter slept in two separate sleep calls. retry-after is accepted only when
 * it is a plain decimal number of seconds (an HTTP date falls back to backoff).
 */
import Anthropic from "@anthropic-ai/sdk";

export interface RetryOptions {
  maxAttempts?: number;
  base?: number;
  cap?: number;
  sleep?: (seconds: number) => Promise<void>;
  random?: () => number;
}

function shouldRetry(err: unknown): boolean {
  if (err instanceof Anthropic.APIConnectionError) return true;
  if (!(err instanceof Anthropic.APIError)) return false;
  const status = err.status;
  if (status === undefined) return false; // e.g. a user abort: not a service failure
  return status === 429 || status >= 500;
}

function retryAfterSeconds(err: unknown): number | null {
  if (!(err instanceof Anthropic.RateLimitError)) return null;
  const raw = err.headers?.get("retry-after") ?? null;
  if (raw === null || !/^\s*\d+(\.\d+)?\s*$/.test(raw)) return null;
  return Number.parseFloat(raw);
}

export async function callWithRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const {
    maxAttempts = 5,
    base = 1.0,
    cap = 60,
    sleep = (s: number) => new Promise<void>((r) => setTimeout(r, s * 1000)),
    random = Math.random,
  } = opts;

  let last: unknown;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!shouldRetry(err)) throw err;
      last = err;
      if (attempt === maxAttempts - 1) break;
      const wait = retryAfterSeconds(err) ?? Math.min(base * 2 ** attempt, cap);
      await sleep(wait);
      await sleep(0.1 * wait * random());
    }
  }
  throw last;
}
