/** The staged embedder of exercise 5: the pairs it promises, the fallback, and the sweep over them. */
import { describe, expect, test } from "vitest";
import {
  CLOSEST_OF_TWO,
  DANGEROUS_PAIRS,
  DIMENSIONS,
  NEAR_MISSES,
  PARAPHRASES,
  stagedEmbedder,
  stagedVector,
} from "../../../checker/testing/staged-embeddings.js";
import { memoized, stagedSweep, sweep, sweepGrid, sweepTable, SWEEP_THRESHOLDS } from "../../../exercises/05-semantic-cache/support/index.js";

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};
const length = (v: ArrayLike<number>) => Math.sqrt(dot(v, v));
const all = [...PARAPHRASES, ...NEAR_MISSES];

describe("the staged pairs", () => {
  test("at least 25 paraphrases and 25 near misses, every text staged once", () => {
    expect(PARAPHRASES.length).toBeGreaterThanOrEqual(25);
    expect(NEAR_MISSES.length).toBeGreaterThanOrEqual(25);
    const seconds = all.map((p) => p.b.toLowerCase());
    expect(new Set(seconds).size).toBe(seconds.length);
  });

  test("each pair's float32 vectors have the similarity staged for it, to 1e-6", async () => {
    const { embed } = stagedEmbedder();
    for (const p of all) {
      const [a, b] = [await embed(p.a), await embed(p.b)];
      expect(a).toBeInstanceOf(Float32Array);
      expect(a).toHaveLength(DIMENSIONS);
      expect(length(a)).toBeCloseTo(1, 6);
      expect(dot(a, b), `${p.a} / ${p.b}`).toBeCloseTo(p.similarity, 6);
    }
  });

  test("the chapter's three dangerous pairs read 0.94, 0.93 and 0.97, and no near miss reaches 0.98", () => {
    expect(dot(stagedVector(DANGEROUS_PAIRS.order.a), stagedVector(DANGEROUS_PAIRS.order.b)).toFixed(2)).toBe("0.94");
    expect(dot(stagedVector(DANGEROUS_PAIRS.password.a), stagedVector(DANGEROUS_PAIRS.password.b)).toFixed(2)).toBe("0.93");
    expect(dot(stagedVector(DANGEROUS_PAIRS.month.a), stagedVector(DANGEROUS_PAIRS.month.b)).toFixed(2)).toBe("0.97");
    expect(Math.max(...NEAR_MISSES.map((p) => p.similarity))).toBeLessThan(0.98);
    expect(PARAPHRASES.filter((p) => p.similarity > DANGEROUS_PAIRS.month.similarity).length).toBeGreaterThan(5);
    expect(PARAPHRASES.filter((p) => p.similarity < DANGEROUS_PAIRS.password.similarity).length).toBeGreaterThan(3);
  });

  test("questions of different pairs are far apart; of the two rewordings, the closer is closer", () => {
    expect(dot(stagedVector(PARAPHRASES[0]!.a), stagedVector(NEAR_MISSES[0]!.b))).toBeCloseTo(0.25, 9);
    const q = stagedVector(CLOSEST_OF_TWO.question);
    expect(dot(q, stagedVector(CLOSEST_OF_TWO.closer.b))).toBeGreaterThan(dot(q, stagedVector(CLOSEST_OF_TWO.farther.b)));
  });
});

describe("the fallback and the options", () => {
  test("other text gets a deterministic unit vector from hashed words and trigrams", () => {
    const a = stagedVector("How do I paint a fence?");
    expect(length(a)).toBeCloseTo(1, 9);
    expect(stagedVector("how do i  paint a fence?")).toEqual(a);
    const near = dot(a, stagedVector("How do I paint the fence?"));
    const far = dot(a, stagedVector("Quarterly tax filing deadlines"));
    expect(near).toBeGreaterThan(0.6);
    expect(near).toBeGreaterThan(far + 0.3);
    expect(length(stagedVector(""))).toBe(0);
  });

  test("scale returns plain arrays that long, and calls are recorded", async () => {
    const fixture = stagedEmbedder({ scale: 3 });
    const v = await fixture.embed(PARAPHRASES[1]!.a);
    expect(Array.isArray(v)).toBe(true);
    expect(length(v)).toBeCloseTo(3, 9);
    expect(fixture.calls).toEqual([PARAPHRASES[1]!.a]);
  });
});

describe("the sweep", () => {
  test("prints hit and false-hit rates side by side, embedding each distinct text once", async () => {
    const fixture = stagedEmbedder();
    const memo = memoized(fixture.embed);
    const rows = await sweep(async (threshold, p) => dot(await memo.embed(p.a), await memo.embed(p.b)) >= threshold, PARAPHRASES, NEAR_MISSES);
    const table = sweepTable(rows, PARAPHRASES.length, NEAR_MISSES.length);
    console.log(`\n${table}\n`);

    expect(rows.map((r) => r.threshold)).toEqual([...SWEEP_THRESHOLDS]);
    expect(fixture.calls).toHaveLength(new Set(all.flatMap((p) => [p.a, p.b])).size);
    const at = (t: number) => rows.find((r) => r.threshold === t)!;
    expect(at(0.97).falseHits).toBe(1);
    expect(at(0.98).falseHits).toBe(0);
    expect(at(0.88).hitRate).toBeCloseTo(at(0.88).hits / PARAPHRASES.length, 12);
    for (const line of table.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
    expect(rows, "the staged sweep is what real vectors give").toEqual(await stagedSweep(PARAPHRASES, NEAR_MISSES));
    const grid = sweepGrid(rows).split("\n");
    expect(grid).toHaveLength(3);
    // A failure message indents the grid by 18 columns ("expected: " under an 8-space indent).
    for (const line of grid) expect(18 + line.length).toBeLessThanOrEqual(80);
  });
});
