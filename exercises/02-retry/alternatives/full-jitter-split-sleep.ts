/**
 * ALTERNATIVE: a correct retry written another way. The jitter is as large as the wait
 * (the widest fraction the chapter defends, 1.0), the wait and the jitter are slept as two
 * separate calls, and the loop is a while loop that classifies errors with a switch.
 */
import Anthropic from "@anthropic-ai/sdk";

export interface RetryOptions {
  maxAttempts?: number;
  base?: number;
  cap?: number;
  sleep?: (seconds: number) => Promise<void>;
  random?: () => number;
}

const timer = (seconds: number) => new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000));

function serverWait(err: { headers?: Headers }): number | undefined {
  const header = err.headers?.get("retry-after");
  const seconds = header == null ? NaN : parseFloat(header);
  return seconds > 0 ? seconds : undefined;
}

function verdict(err: unknown): "retry" | "final" {
  switch (true) {
    case err instanceof Anthropic.RateLimitError:
    case err instanceof Anthropic.APIConnectionError:
      return "retry";
    case err instanceof Anthropic.APIError:
      return typeof err.status === "number" && err.status >= 500 ? "retry" : "final";
    default:
      return "final";
  }
}

export async function callWithRetry<T>(fn: () => Promise<T>, opts?: RetryOptions): Promise<T> {
  const maxAttempts = opts?.maxAttempts ?? 5;
  const base = opts?.base ?? 1;
  const cap = opts?.cap ?? 60;
  const sleep = opts?.sleep ?? timer;
  const random = opts?.random ?? Math.random;
  let attempt = 0;
  while (true) {
    try {
      return await fn();
    } catch (err) {
      attempt++;
      if (verdict(err) === "final" || attempt >= maxAttempts) throw err;
      const wait = (err instanceof Anthropic.RateLimitError ? serverWait(err) : undefined) ?? Math.min(base * 2 ** (attempt - 1), cap);
      await sleep(wait);
      await sleep(random() * wait);
    }
  }
}
