/**
 * Written blind from the lesson and the stub, by a helper who never saw the hidden tests.
 *
 * Cache audit, variant: a plain for loop of awaited calls; the verdict from an
 * if/else chain; findInvalidator compares line i with line i (plus the extra lines
 * of the longer rendering) and filters the probe lines afterwards.
 */
import Anthropic from "@anthropic-ai/sdk";

export type BuildRequest = (question: string) => Anthropic.MessageCreateParamsNonStreaming;

export interface CallStats {
  uncachedIn: number;
  cacheWrite: number;
  cacheRead: number;
}

export interface Audit {
  perCall: CallStats[];
  hitRate: number;
  verdict: string;
}

export async function auditCaching(client: Anthropic, build: BuildRequest, n = 3): Promise<Audit> {
  const perCall: CallStats[] = [];
  for (let i = 0; i < n; i++) {
    const reply = await client.messages.create(build(`probe ${i}`));
    const u = reply.usage;
    perCall.push({
      uncachedIn: u.input_tokens ?? 0,
      cacheWrite: u.cache_creation_input_tokens ?? 0,
      cacheRead: u.cache_read_input_tokens ?? 0,
    });
  }

  const last = perCall[perCall.length - 1];
  let hitRate = 0;
  if (last) {
    const total = last.cacheRead + last.cacheWrite + last.uncachedIn;
    hitRate = total > 0 ? last.cacheRead / total : 0;
  }

  let verdict: string;
  if (hitRate > 0.7) verdict = "HEALTHY: the warm call reads most of its prompt from the cache";
  else if (hitRate > 0.1) verdict = "WEAK: a breakpoint probably sits before most of the stable text";
  else verdict = "BROKEN: something in the prefix changes on every call (a silent invalidator)";
  return { perCall, hitRate, verdict };
}

export function findInvalidator(build: BuildRequest, probeA = "q1", probeB = "q2"): string {
  const a = JSON.stringify(build(probeA), null, 2).split("\n");
  const b = JSON.stringify(build(probeB), null, 2).split("\n");
  const hasProbe = (line: string) => line.includes(probeA) || line.includes(probeB);

  const found: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    if (a[i] !== undefined && !hasProbe(a[i])) found.push("- " + a[i]);
    if (b[i] !== undefined && !hasProbe(b[i])) found.push("+ " + b[i]);
  }
  return found.length > 0 ? found.join("\n") : "payloads identical apart from the probe: check the prefix length";
}
