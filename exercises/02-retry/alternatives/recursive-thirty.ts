// Written blind from the lesson and the contract by a helper who never read the hidden tests.
/**
 * Retry, variant: recursion over the attempt number instead of a loop, the lesson's
 * jitter fraction (0.3), the cap applied with an if instead of Math.min, and
 * retry-after parsed with parseFloat (so "7" and "7.5" work, a date or a missing
 * header falls back to the backoff).
 */
import Anthropic from "@anthropic-ai/sdk";

export interface RetryOptions {
  maxAttempts?: number;
  base?: number;
  cap?: number;
  sleep?: (seconds: number) => Promise<void>;
  random?: () => number;
}

const JITTER = 0.3;

export async function callWithRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const maxAttempts = opts.maxAttempts ?? 5;
  const base = opts.base ?? 1.0;
  const cap = opts.cap ?? 60;
  const random = opts.random ?? Math.random;
  const sleep =
    opts.sleep ??
    ((seconds: number) =>
      new Promise<void>((resolve) => {
        setTimeout(resolve, seconds * 1000);
      }));

  const attempt = async (n: number): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      const retryable =
        err instanceof Anthropic.RateLimitError ||
        err instanceof Anthropic.APIConnectionError ||
        (err instanceof Anthropic.APIError && (err.status ?? 0) >= 500);
      if (!retryable || n >= maxAttempts - 1) throw err;

      let wait = base * 2 ** n;
      if (wait > cap) wait = cap;
      if (err instanceof Anthropic.RateLimitError && err.headers) {
        const hinted = Number.parseFloat(err.headers.get("retry-after") ?? "");
        if (Number.isFinite(hinted) && hinted >= 0) wait = hinted;
      }
      await sleep(wait + wait * JITTER * random());
      return attempt(n + 1);
    }
  };
  return attempt(0);
}
