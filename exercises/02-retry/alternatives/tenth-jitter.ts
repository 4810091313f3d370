/**
 * ALTERNATIVE: a correct retry written another way. The jitter is a tenth of the wait, the
 * narrowest fraction the chapter defends, and the attempts are a recursive function.
 */
import Anthropic from "@anthropic-ai/sdk";

export interface RetryOptions {
  maxAttempts?: number;
  base?: number;
  cap?: number;
  sleep?: (seconds: number) => Promise<void>;
  random?: () => number;
}

const JITTER_SHARE = 0.1;

const transient = (err: unknown) =>
  err instanceof Anthropic.APIConnectionError ||
  err instanceof Anthropic.RateLimitError ||
  (err instanceof Anthropic.APIError && err.status !== undefined && err.status >= 500);

export function callWithRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const {
    maxAttempts = 5,
    base = 1,
    cap = 60,
    sleep = (s: number) => new Promise<void>((r) => setTimeout(r, s * 1000)),
    random = Math.random,
  } = opts;
  const attempt = async (n: number): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (!transient(err) || n + 1 >= maxAttempts) throw err;
      const asked = err instanceof Anthropic.RateLimitError ? Number(err.headers.get("retry-after") ?? "") : 0;
      const wait = asked > 0 ? asked : Math.min(cap, base * Math.pow(2, n));
      await sleep(wait * (1 + JITTER_SHARE * random()));
      return attempt(n + 1);
    }
  };
  return attempt(0);
}
