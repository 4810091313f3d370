/**
 * Tier 3: the prompt-cache audit with the SDK.
 *
 * `build` is your agent's own request builder: a question in, the exact arguments of
 * `client.messages.create` out. The audit calls it a few times with different questions
 * and reads the usage; when the verdict is bad, `findInvalidator` renders two payloads
 * and diffs them to name the line that broke the prefix.
 *
 * Wire it into CI as a smoke test over your real builder:
 *
 *   const { verdict } = await auditCaching(client, buildRequest);
 *   if (!verdict.startsWith("HEALTHY")) throw new Error(`prompt cache: ${verdict}`);
 */
import Anthropic from "@anthropic-ai/sdk";

export type BuildRequest = (question: string) => Anthropic.MessageCreateParamsNonStreaming;

export interface CallStats {
  uncachedIn: number;
  cacheWrite: number;
  cacheRead: number;
}

export async function auditCaching(client: Anthropic, build: BuildRequest, n = 3) {
  const perCall: CallStats[] = [];
  for (const question of Array.from({ length: n }, (_, i) => `audit question ${i + 1}`)) {
    // Awaited one by one: a cache entry exists only once its writer has answered.
    const { usage: u } = await client.messages.create(build(question));
    perCall.push({ uncachedIn: u.input_tokens, cacheWrite: u.cache_creation_input_tokens ?? 0, cacheRead: u.cache_read_input_tokens ?? 0 });
  }
  const warm = perCall[perCall.length - 1];
  const paid = warm ? warm.cacheRead + warm.cacheWrite + warm.uncachedIn : 0;
  // What share of the input this call paid for came from the cache; rounded for reading.
  const hitRate = warm && paid > 0 ? Math.round((warm.cacheRead / paid) * 1000) / 1000 : 0;
  let verdict = "BROKEN: a silent invalidator; run findInvalidator on the builder";
  if (hitRate > 0.7) verdict = "HEALTHY";
  else if (hitRate > 0.1) verdict = "WEAK: the breakpoint may sit before most of the stable text";
  return { perCall, hitRate, verdict };
}

/**
 * Positional diff: line i of one payload against line i of the other. Enough here, since
 * an invalidator usually changes lines in place; when one payload is longer, its extra
 * lines are reported too.
 */
export function findInvalidator(build: BuildRequest, probeA = "q1", probeB = "q2"): string {
  // JSON.stringify keeps keys in insertion order. No replacer that sorts them: sorting
  // is the fix for invalidator 3, so a sorted render would make the two payloads agree.
  const a = JSON.stringify(build(probeA), null, 2).split("\n");
  const b = JSON.stringify(build(probeB), null, 2).split("\n");
  const findings: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    if (a[i] !== undefined) findings.push(`- ${a[i]}`);
    if (b[i] !== undefined) findings.push(`+ ${b[i]}`);
  }
  // The probes differ on purpose; a difference you made is not a finding.
  const real = findings.filter((line) => !line.includes(probeA) && !line.includes(probeB));
  return real.length ? real.slice(0, 40).join("\n") : "payloads identical except for the probe - check the prefix length";
}
