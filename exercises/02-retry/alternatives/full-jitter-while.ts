// Written blind from the lesson and the contract by a helper who never read the hidden tests.
/**
 * Retry, variant: a while(true) loop with an explicit attempt index, and "full"
 * jitter: the extra sleep is drawn from [0, 1.0 · wait] (the top of the range the
 * contract accepts). retry-after is read with Number() after checking the header is
 * present and non-blank, so a missing header falls back to the doubling rule.
 */
import Anthropic from "@anthropic-ai/sdk";

export interface RetryOptions {
  maxAttempts?: number;
  base?: number;
  cap?: number;
  sleep?: (seconds: number) => Promise<void>;
  random?: () => number;
}

const realSleep = (seconds: number) => new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000));

function isTransient(err: unknown): boolean {
  if (err instanceof Anthropic.APIConnectionError) return true;
  if (err instanceof Anthropic.RateLimitError) return true;
  return err instanceof Anthropic.APIError && typeof err.status === "number" && err.status >= 500;
}

export async function callWithRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const maxAttempts = opts.maxAttempts ?? 5;
  const base = opts.base ?? 1.0;
  const cap = opts.cap ?? 60;
  const sleep = opts.sleep ?? realSleep;
  const random = opts.random ?? Math.random;

  let attempt = 0;
  while (true) {
    try {
      return await fn();
    } catch (err) {
      if (!isTransient(err)) throw err;
      if (attempt + 1 >= maxAttempts) throw err;

      let wait = Math.min(cap, base * Math.pow(2, attempt));
      if (err instanceof Anthropic.RateLimitError) {
        const header = err.headers?.get("retry-after");
        if (header != null && header.trim() !== "" && Number.isFinite(Number(header))) {
          wait = Number(header);
        }
      }
      await sleep(wait + random() * wait);
      attempt += 1;
    }
  }
}
