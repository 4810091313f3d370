/**
 * A session's fuse, on every scenario (`/s/NAME/fuse=40`): past that many requests with one
 * API key, the provider cuts the connection without an answer, as a network that went away
 * would, and records nothing. A hidden test sets it above what any correct run needs, so a
 * loop that never stops ends in a connection error rather than at the test's time limit.
 */
import { BoundedCounter } from "./bounded-counter.js";
import { accepts, integer } from "./scenarios/options.js";
import type { OptionSpec } from "./scenarios/types.js";

export const FUSE_OPTIONS: Readonly<Record<string, OptionSpec>> = { fuse: integer(1, 100_000) };

/** The fuse a request's path asks for (none when absent or out of range), and the options left for the scenario. */
export function splitFuse(options: Record<string, string>): { fuse: number | null; rest: Record<string, string> } {
  const { fuse, ...rest } = options;
  return { fuse: fuse !== undefined && accepts(FUSE_OPTIONS.fuse!, fuse) ? Number(fuse) : null, rest };
}

/** Sessions whose count is kept; the least recently used is forgotten past this many. */
const SESSIONS = 10_000;

/** Counts each API key's requests that asked for a fuse; says when one is past it. */
export class Fuses {
  private readonly made = new BoundedCounter(SESSIONS);

  /** Counts this request; true when it is past its fuse and must not be answered. */
  blown(apiKey: string, fuse: number | null): boolean {
    return fuse !== null && this.made.next(apiKey) > fuse;
  }
}
