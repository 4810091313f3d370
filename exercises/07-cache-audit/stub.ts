/**
 * Exercise 7: the prompt-cache audit. Replace each `throw` with your code; keep the
 * exported names and signatures as they are (the hidden tests import them).
 */
import Anthropic from "@anthropic-ai/sdk";

/** Your agent's request builder: a question in, the exact request it would send out. */
export type BuildRequest = (question: string) => Anthropic.MessageCreateParamsNonStreaming;

/** One call's input tokens, split the way the bill splits them. */
export interface CallStats {
  uncachedIn: number;
  cacheWrite: number;
  cacheRead: number;
}

export interface Audit {
  perCall: CallStats[];
  /** The last call's cacheRead / (cacheRead + cacheWrite + uncachedIn); 0 when that is 0. */
  hitRate: number;
  /** Starts with "HEALTHY" (> 0.7), "WEAK" (> 0.1) or "BROKEN". */
  verdict: string;
}

/**
 * Sends build(question) n times, one call after another, a different question each
 * time and the request exactly as built; records each call's usage and judges the
 * last call's hit rate.
 */
export async function auditCaching(client: Anthropic, build: BuildRequest, n = 3): Promise<Audit> {
  throw new Error("not implemented");
}

/**
 * Renders build(probeA) and build(probeB) with JSON.stringify(payload, null, 2), keys
 * never sorted, diffs the lines in order, drops the lines holding either probe, and
 * returns the differing lines joined by "\n", or a sentence containing "identical".
 */
export function findInvalidator(build: BuildRequest, probeA = "q1", probeB = "q2"): string {
  throw new Error("not implemented");
}
