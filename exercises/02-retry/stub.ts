/**
 * Exercise 2: retry with backoff and jitter. Replace the `throw` with your code; keep
 * the exported names and signatures as they are (the hidden tests import them).
 */
import Anthropic from "@anthropic-ai/sdk";

export interface RetryOptions {
  /** Calls of `fn` in all, the first one included. Default 5. */
  maxAttempts?: number;
  /** First backoff wait in seconds, doubled after each failed attempt. Default 1.0. */
  base?: number;
  /** Longest backoff wait in seconds, before jitter. Default 60. */
  cap?: number;
  /** Waits this many seconds. Default: a real timer. Tests pass a fake clock. */
  sleep?: (seconds: number) => Promise<void>;
  /** A number in [0, 1). Default Math.random. */
  random?: () => number;
}

/**
 * Calls `fn` until it succeeds or `maxAttempts` calls have failed.
 *
 * - Retry Anthropic.RateLimitError (429), any Anthropic.APIError with status >= 500
 *   (529 included) and Anthropic.APIConnectionError. Rethrow any other error at once.
 * - Wait `base · 2^attempt` seconds, at most `cap`; a 429's retry-after header
 *   (err.headers.get("retry-after"), in seconds) wins over that when present.
 * - Sleep wait + jitter, jitter drawn from [0, 0.3 · wait].
 * - When every attempt has failed, throw the last error.
 */
export async function callWithRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  throw new Error("not implemented");
}
