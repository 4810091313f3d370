/**
 * MUTANT retries-400: retries every failure, a malformed request included. A 400 fails the
 * same way on every attempt: five identical errors, and the real problem shows up last.
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
      last = err;
      if (attempt === maxAttempts - 1) break;
      const wait = retryAfter(err) ?? Math.min(base * 2 ** attempt, cap);
      await sleep(wait + random() * JITTER * wait);
    }
  }
  throw last;
}

/** The server's own wait in seconds, when a 429 carries one. */
function retryAfter(err: unknown): number | null {
  if (!(err instanceof Anthropic.RateLimitError)) return null;
  const seconds = Number(err.headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}
