/**
 * Tier 3: retry with backoff and jitter against @anthropic-ai/sdk.
 *
 * The whole decision lives in the catch block: is this failure the harness's to retry
 * (429, 5xx, a dropped connection) or the request's own fault (every other 4xx)? The
 * first kind waits and goes round again; the second is rethrown untouched.
 *
 * Build the client with `maxRetries: 0` when you use this, or the SDK's own retries
 * run inside yours and the attempts multiply.
 */
import Anthropic from "@anthropic-ai/sdk";

export interface RetryOptions {
  maxAttempts?: number;
  base?: number;
  cap?: number;
  sleep?: (seconds: number) => Promise<void>;
  random?: () => number;
}

export async function callWithRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const {
    maxAttempts = 5,
    base = 1.0,
    cap = 60,
    sleep = (seconds: number) => new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000)),
    random = Math.random,
  } = opts;

  let last: unknown;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    try {
      // `fn` builds a fresh request each time. Awaiting one promise five times would
      // "retry" a request that was sent once.
      return await fn();
    } catch (err) {
      let wait: number | null = null;
      if (err instanceof Anthropic.RateLimitError) {
        // The server says when its window resets; that beats any exponent of ours.
        // A missing or unreadable header leaves `wait` null, and backoff fills it in.
        const seconds = Number(err.headers.get("retry-after"));
        if (Number.isFinite(seconds) && seconds > 0) wait = seconds;
      } else if (err instanceof Anthropic.APIConnectionError) {
        // The request never got an answer (reset, dropped, timed out). Check this
        // before APIError: it is a subclass whose status is undefined.
      } else if (err instanceof Anthropic.APIError && (err.status ?? 0) >= 500) {
        // 500, 503 and 529 (overloaded): the service, not the request.
      } else {
        // A 400 will be a 400 on every attempt. Fail now, with the real message.
        throw err;
      }
      last = err;
      if (attempt === maxAttempts - 1) break; // no point sleeping before giving up

      // Backoff: 1, 2, 4, 8 … seconds, never above the cap (attempt 8 would be 256 s).
      wait ??= Math.min(base * 2 ** attempt, cap);
      // Jitter: clients that failed at the same instant must not wake at the same
      // instant. 30 % keeps every wait inside [wait, 1.3 · wait], so the worst case
      // stays predictable while twenty clients still spread out.
      await sleep(wait + random() * 0.3 * wait);
    }
  }
  // Out of attempts: the most recent error says most about the current state.
  throw last;
}
