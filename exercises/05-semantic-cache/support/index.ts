/**
 * The chapter's threshold sweep for a semantic cache: at each threshold, how many
 * paraphrases would be served (hit rate) and how many near misses (false-hit rate),
 * each divided by the length of its own list.
 */
import type { LabelledPair } from "../../../checker/testing/index.js";

// In thousandths, so the steps read as whole numbers; t / 1000 is the very double the decimal literal would be.
export const SWEEP_THRESHOLDS: readonly number[] = [880, 900, 920, 940, 950, 960, 970, 980, 990, 995].map((t) => t / 1000);

export interface SweepRow {
  threshold: number;
  hits: number;
  falseHits: number;
  hitRate: number;
  falseHitRate: number;
}

/** Whether the second question of `pair` is served the first one's answer at `threshold`. */
export type Served = (threshold: number, pair: LabelledPair) => Promise<boolean>;

export async function sweep(
  served: Served,
  paraphrases: readonly LabelledPair[],
  nearMisses: readonly LabelledPair[],
  thresholds: readonly number[] = SWEEP_THRESHOLDS,
): Promise<SweepRow[]> {
  // Every pair at every threshold at once: each is served by a cache of its own, so none waits on another's round trips.
  const count = async (threshold: number, pairs: readonly LabelledPair[]) => (await Promise.all(pairs.map((p) => served(threshold, p)))).filter(Boolean).length;
  return Promise.all(
    thresholds.map(async (threshold) => {
      const [hits, falseHits] = await Promise.all([count(threshold, paraphrases), count(threshold, nearMisses)]);
      return { threshold, hits, falseHits, hitRate: hits / paraphrases.length, falseHitRate: falseHits / nearMisses.length };
    }),
  );
}

/** The rows as a small table, both rates side by side, 80 columns or fewer. */
export function sweepTable(rows: readonly SweepRow[], paraphrases: number, nearMisses: number): string {
  const lines = [
    `threshold   hit rate (of ${paraphrases})   false-hit rate (of ${nearMisses})`,
    ...rows.map(
      (r) =>
        `${r.threshold.toFixed(3).padStart(9)}   ${r.hitRate.toFixed(2).padStart(6)} (${String(r.hits).padStart(2)})` +
        `        ${r.falseHitRate.toFixed(2).padStart(6)} (${String(r.falseHits).padStart(2)})`,
    ),
  ];
  return lines.join("\n");
}

/** The same rates as three short rows, one column per threshold: fits a failure message at 80 columns. */
export function sweepGrid(rows: readonly SweepRow[]): string {
  const rate = (x: number) => x.toFixed(2).replace(/^0/, "").padStart(4);
  return [
    `t    ${rows.map((r) => r.threshold.toFixed(3).replace(/^0/, "")).join(" ")}`,
    `hit  ${rows.map((r) => rate(r.hitRate)).join(" ")}`,
    `false${rows.map((r) => rate(r.falseHitRate)).join(" ")}`,
  ].join("\n");
}

/** What the sweep must give on staged pairs: a pair is served exactly when its similarity reaches the threshold. */
export function stagedSweep(
  paraphrases: readonly LabelledPair[],
  nearMisses: readonly LabelledPair[],
  thresholds: readonly number[] = SWEEP_THRESHOLDS,
): Promise<SweepRow[]> {
  return sweep((threshold, p) => Promise.resolve(p.similarity >= threshold), paraphrases, nearMisses, thresholds);
}

export interface Memo {
  embed: (text: string) => Promise<number[] | Float32Array>;
  /** How many distinct texts reached the wrapped function. */
  readonly size: number;
}

/** The chapter's memo: each distinct text goes to `embed` once; later calls reuse the vector. */
export function memoized(embed: (text: string) => Promise<number[] | Float32Array>): Memo {
  const seen = new Map<string, Promise<number[] | Float32Array>>();
  return {
    // Async, as the function it stands for: the learner's realm calls it without waiting for the test's side.
    async embed(text) {
      let vector = seen.get(text);
      if (!vector) seen.set(text, (vector = embed(text)));
      return vector;
    },
    get size() {
      return seen.size;
    },
  };
}
