/**
 * MUTANT waits-after-last-attempt: the loop sleeps after every failure, the last one included.
 */
import Anthropic from "@anthropic-ai/sdk";

export interface RetryOptions {
  /** Calls of `fn` in all, the first one included (5). */
  maxAttempts?: number;
  /** First backoff wait in seconds, doubled on each retry (1.0). */
  base?: number;
  /** Longest backoff wait in seconds, before jitter (60). */
  cap?: number;
  sleep?: (seconds: number) => Promise<void>;
  random?: () => number;
}

/** Jitter is drawn from [0, JITTER × wait]. */
const JITTER = 0.3;

const realSleep = (seconds: number) => new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000));

export async function callWithRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const { maxAttempts = 5, base = 1.0, cap = 60, sleep = realSleep, random = Math.random } = opts;
  let last: unknown;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isTransient(err)) throw err; // the request is wrong; sending it again changes nothing
      last = err;
      const wait = retryAfter(err) ?? Math.min(base * 2 ** attempt, cap);
      await sleep(wait + random() * JITTER * wait);
    }
  }
  throw last;
}

/** Failures of the infrastructure, not of the request: worth the same call again later. */
function isTransient(err: unknown): boolean {
  if (err instanceof Anthropic.APIConnectionError) return true; // dropped, reset, timed out
  if (err instanceof Anthropic.RateLimitError) return true; // 429
  return err instanceof Anthropic.APIError && (err.status ?? 0) >= 500; // 500, 503, 529 …
}

/** The server's own wait in seconds, when a 429 carries one. */
function retryAfter(err: unknown): number | null {
  if (!(err instanceof Anthropic.RateLimitError)) return null;
  const seconds = Number(err.headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}
