/**
 * Written blind from the lesson and the stub, by a helper who never saw the hidden tests.
 *
 * Cache audit, variant: the probes are random UUID-tagged strings, the calls are
 * chained one after another with an async reduce, the verdict is looked up in a
 * descending threshold table, and findInvalidator runs a longest-common-subsequence
 * diff (dynamic programming table, then a walk from the start) on the rendered lines.
 */
import { randomUUID } from "node:crypto";
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

const VERDICTS: [number, string][] = [
  [0.7, "HEALTHY (warm calls read the cached prefix back)"],
  [0.1, "WEAK (only part of the stable prefix is under a breakpoint)"],
];

export async function auditCaching(client: Anthropic, build: BuildRequest, n = 3): Promise<Audit> {
  const tag = randomUUID();
  const perCall = await Array.from({ length: n }, (_, i) => `audit ${tag} question ${i}`).reduce<Promise<CallStats[]>>(
    async (previous, question) => {
      const rows = await previous;
      const { usage } = await client.messages.create(build(question));
      rows.push({
        uncachedIn: usage.input_tokens || 0,
        cacheWrite: usage.cache_creation_input_tokens || 0,
        cacheRead: usage.cache_read_input_tokens || 0,
      });
      return rows;
    },
    Promise.resolve([]),
  );

  const last = perCall.at(-1) ?? { uncachedIn: 0, cacheWrite: 0, cacheRead: 0 };
  const denominator = last.cacheRead + last.cacheWrite + last.uncachedIn;
  const hitRate = denominator === 0 ? 0 : last.cacheRead / denominator;
  const verdict = VERDICTS.find(([floor]) => hitRate > floor)?.[1] ?? "BROKEN (nothing, or next to nothing, was read back)";
  return { perCall, hitRate, verdict };
}

function lcsDiff(a: string[], b: string[]): string[] {
  const rows = a.length + 1;
  const cols = b.length + 1;
  // len[i * cols + j] = LCS length of a[i..] and b[j..]
  const len = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      len[i * cols + j] =
        a[i] === b[j] ? len[(i + 1) * cols + j + 1] + 1 : Math.max(len[(i + 1) * cols + j], len[i * cols + j + 1]);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (j >= b.length || (i < a.length && len[(i + 1) * cols + j] >= len[i * cols + j + 1])) {
      out.push("-" + a[i++]);
    } else {
      out.push("+" + b[j++]);
    }
  }
  return out;
}

export function findInvalidator(build: BuildRequest, probeA = "q1", probeB = "q2"): string {
  const render = (q: string) => JSON.stringify(build(q), null, 2).split("\n");
  const changes = lcsDiff(render(probeA), render(probeB)).filter(
    (line) => !line.includes(probeA) && !line.includes(probeB),
  );
  if (changes.length === 0) return `identical: the two payloads differ only in the probe (${probeA} / ${probeB})`;
  return changes.join("\n");
}
