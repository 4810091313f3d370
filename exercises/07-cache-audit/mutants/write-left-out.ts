/**
 * MUTANT write-left-out: cache writes are left out of the hit rate's denominator: a call writing 6,100 fresh tokens reports 0.99 instead of 0.745.
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
  // One after another: an entry exists only once the call that wrote it has answered.
  for (let i = 0; i < n; i++) {
    const { usage } = await client.messages.create(build(`probe ${i}`));
    perCall.push({
      uncachedIn: usage.input_tokens,
      cacheWrite: usage.cache_creation_input_tokens ?? 0,
      cacheRead: usage.cache_read_input_tokens ?? 0,
    });
  }
  // The first call can only write; the last one shows whether the prefix is reused.
  const last = perCall.at(-1) ?? { uncachedIn: 0, cacheWrite: 0, cacheRead: 0 };
  const total = last.uncachedIn + last.cacheRead;
  const hitRate = total > 0 ? last.cacheRead / total : 0;
  const verdict =
    hitRate > 0.7
      ? "HEALTHY"
      : hitRate > 0.1
        ? "WEAK - the breakpoint may sit before most of the stable text"
        : "BROKEN - something in the prefix changes between calls";
  return { perCall, hitRate, verdict };
}

/** Lines only in `a` (prefixed "-") and only in `b` ("+"), in order, by longest common subsequence. */
function diffLines(a: string[], b: string[]): string[] {
  const common = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i]![j] = a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (j >= b.length || (i < a.length && common[i + 1]![j]! >= common[i]![j + 1]!)) {
      out.push(`-${a[i++]}`);
    } else {
      out.push(`+${b[j++]}`);
    }
  }
  return out;
}

export function findInvalidator(build: BuildRequest, probeA = "q1", probeB = "q2"): string {
  // No sorted keys: sorting is the fix for key-order instability, so it would hide it.
  const render = (probe: string) => JSON.stringify(build(probe), null, 2).split("\n");
  const changed = diffLines(render(probeA), render(probeB)).filter(
    (line) => !line.includes(probeA) && !line.includes(probeB),
  );
  return changed.length > 0 ? changed.join("\n") : "payloads identical apart from the probe: check the prefix length";
}
