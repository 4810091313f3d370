/**
 * How fast the provider answers, dialled per provider (`latencyMs`, `perTokenMs`) or per
 * request in the path (`/s/NAME/latency=300/perToken=20`), on every scenario: the first
 * token comes after `latency` ms and each further token `perToken` ms after the last, so a
 * non-streamed reply arrives when a streamed one would have ended.
 */
import { accepts, decimal, integer } from "./scenarios/options.js";
import type { OptionSpec } from "./scenarios/types.js";

export interface Pacing {
  latencyMs: number;
  perTokenMs: number;
}

/** The path options every scenario takes besides its own. */
export const PACING_OPTIONS: Readonly<Record<string, OptionSpec>> = { latency: integer(0, 600_000), perToken: decimal(0, 10_000) };

/** The pacing a request's path asks for (a value it cannot take leaves the provider's own), and the options left for the scenario. */
export function splitPacing(options: Record<string, string>, defaults: Pacing): { pacing: Pacing; rest: Record<string, string> } {
  const rest = { ...options };
  const read = (name: string, fallback: number) => {
    const value = rest[name];
    delete rest[name];
    return value !== undefined && accepts(PACING_OPTIONS[name]!, value) ? Number(value) : fallback;
  };
  return { pacing: { latencyMs: read("latency", defaults.latencyMs), perTokenMs: read("perToken", defaults.perTokenMs) }, rest };
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
