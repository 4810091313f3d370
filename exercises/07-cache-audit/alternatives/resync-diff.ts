/**
 * Written blind from the lesson and the stub, by a helper who never saw the hidden tests.
 *
 * Cache audit, variant: a while loop over the calls with the stats read by
 * destructuring; hit rate rounded to three decimals for the report while the verdict
 * compares the unrounded value; findInvalidator walks both line lists with two
 * pointers and resynchronises at the nearest line the other side contains again
 * (a greedy order-keeping diff), and recognises a probe in its raw or JSON-escaped form.
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
  let i = 0;
  while (i < n) {
    const params = build("Audit probe #" + String(i));
    const message = await client.messages.create(params);
    const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens } = message.usage;
    perCall.push({
      uncachedIn: typeof input_tokens === "number" ? input_tokens : 0,
      cacheWrite: typeof cache_creation_input_tokens === "number" ? cache_creation_input_tokens : 0,
      cacheRead: typeof cache_read_input_tokens === "number" ? cache_read_input_tokens : 0,
    });
    i += 1;
  }

  const exact = (() => {
    if (perCall.length === 0) return 0;
    const { uncachedIn, cacheWrite, cacheRead } = perCall[perCall.length - 1];
    const all = uncachedIn + cacheWrite + cacheRead;
    return all ? cacheRead / all : 0;
  })();
  const label = exact > 0.7 ? "HEALTHY" : exact > 0.1 ? "WEAK" : "BROKEN";
  return {
    perCall,
    hitRate: Math.round(exact * 1000) / 1000,
    verdict: `${label}: the last call read ${(exact * 100).toFixed(1)}% of its input from the cache`,
  };
}

function greedyDiff(a: string[], b: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    const inB = b.indexOf(a[i], j); // where a[i] shows up again in b
    const inA = a.indexOf(b[j], i); // where b[j] shows up again in a
    const skipB = inB < 0 ? Infinity : inB - j;
    const skipA = inA < 0 ? Infinity : inA - i;
    if (skipB === Infinity && skipA === Infinity) {
      out.push("- " + a[i++], "+ " + b[j++]);
    } else if (skipB <= skipA) {
      while (j < inB) out.push("+ " + b[j++]);
    } else {
      while (i < inA) out.push("- " + a[i++]);
    }
  }
  while (i < a.length) out.push("- " + a[i++]);
  while (j < b.length) out.push("+ " + b[j++]);
  return out;
}

export function findInvalidator(build: BuildRequest, probeA = "q1", probeB = "q2"): string {
  const left = JSON.stringify(build(probeA), null, 2).split("\n");
  const right = JSON.stringify(build(probeB), null, 2).split("\n");
  const needles = [probeA, probeB].flatMap((p) => [p, JSON.stringify(p).slice(1, -1)]);
  const remaining = greedyDiff(left, right).filter((line) => !needles.some((p) => line.includes(p)));
  return remaining.length ? remaining.join("\n") : "The two payloads are identical except for the probe question.";
}
