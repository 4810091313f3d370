import { describe, expect, test } from "vitest";
import { cacheable, cos, SemanticCache, unit } from "lab:impl";
import { memoized, stagedSweep, sweep, sweepGrid, sweepTable, SWEEP_THRESHOLDS } from "lab:support";
import { CLOSEST_OF_TWO, DANGEROUS_PAIRS, fakeClock, NEAR_MISSES, PARAPHRASES, seededRandom, stagedEmbedder, type LabelledPair } from "lab:test";

// The embedder is a fixture: its similarities are staged, not measured on any model.

const answerTo = (q: string) => `The answer to "${q}".`;
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((sum, x, i) => sum + x * b[i]!, 0);
/** A paraphrase staged at 0.986, above the default threshold. */
const CLOSE = PARAPHRASES.find((p) => p.similarity > 0.98 && p.similarity < 0.99)!;

describe("05 semantic cache: the vectors", () => {
  test("unit scales to length 1, and a vector of zeros stays zeros, not NaN (zero-norm bug)", () => {
    expect(Array.from(unit([3, 4]))).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(Array.from(unit(new Float32Array([0, 5, 0])))).toEqual([0, expect.closeTo(1, 6), 0]);

    const zeros = Array.from(unit([0, 0, 0]));
    expect(zeros.some(Number.isNaN), "unit([0, 0, 0]) holds NaN").toBe(false);
    expect(zeros).toEqual([0, 0, 0]);
  });

  test("cos of two unit vectors is their dot product: 0.96 for [0.6, 0.8] and [0.8, 0.6] (reduce-without-seed bug)", () => {
    expect(cos(unit([3, 4]), unit([4, 3]))).toBeCloseTo(0.96, 6);
    expect(cos(unit([3, 4]), unit([3, 4]))).toBeCloseTo(1, 6);

    const random = seededRandom(5);
    for (let n = 0; n < 5; n++) {
      const a = unit(Array.from({ length: 64 }, () => random() - 0.5));
      const b = unit(Array.from({ length: 64 }, () => random() - 0.5));
      expect(cos(a, b)).toBeCloseTo(dot(a, b), 6);
    }
  });
});

describe("05 semantic cache: the threshold", () => {
  test("the sweep 0.88 … 0.995: a pair is served exactly when its similarity clears the threshold (ignores-threshold bug)", async () => {
    const fixture = stagedEmbedder();
    const memo = memoized(fixture.embed); // the chapter's memo: each distinct string embedded once
    const served = async (threshold: number, p: LabelledPair) => {
      // Frozen, so the learner's realm is handed a copy, read without a round trip per field.
      const cache = new SemanticCache(Object.freeze({ embed: memo.embed, threshold }));
      await cache.put(p.a, answerTo(p.a));
      return (await cache.get(p.b)) === answerTo(p.a);
    };

    const rows = await sweep(served, PARAPHRASES, NEAR_MISSES);
    const table = sweepTable(rows, PARAPHRASES.length, NEAR_MISSES.length);
    console.log(`\nThreshold sweep over the staged pairs:\n${table}\n`);

    const staged = await stagedSweep(PARAPHRASES, NEAR_MISSES);
    expect(sweepGrid(rows), "hit and false-hit rate at each threshold t: received is yours, expected is the staged pairs'").toBe(sweepGrid(staged));
    expect(rows.map((r) => [r.hits, r.falseHits])).toEqual(staged.map((r) => [r.hits, r.falseHits]));
    const month = DANGEROUS_PAIRS.month;
    expect(await served(0.95, month), "at 0.95 the May question gets the March answer").toBe(true);
    expect(rows.filter((r) => r.threshold >= 0.98).every((r) => r.falseHits === 0)).toBe(true);
    expect(fixture.calls, "the memo embeds each distinct string once").toHaveLength(memo.size);
    expect(rows.map((r) => r.threshold)).toEqual([...SWEEP_THRESHOLDS]);

    // "At least the threshold": a similarity exactly on it is served (1 for the same vector, threshold 1).
    const exact = new SemanticCache({ embed: async () => [1, 0], threshold: 1 });
    await exact.put("ping", "pong");
    expect(await exact.get("ping again"), "a similarity equal to the threshold").toBe("pong");
  });

  test("the default threshold serves none of the 25 near misses, and still serves paraphrases above 0.98 (low-default-threshold bug)", async () => {
    const cache = new SemanticCache({ embed: stagedEmbedder().embed });
    const above = PARAPHRASES.filter((p) => p.similarity >= 0.98);
    for (const p of [...NEAR_MISSES, ...above]) await cache.put(p.a, answerTo(p.a));

    const servedNearMisses: string[] = [];
    for (const p of NEAR_MISSES) if ((await cache.get(p.b)) !== null) servedNearMisses.push(`${p.b} (${p.similarity})`);
    expect(servedNearMisses, "near misses served with the default threshold").toEqual([]);
    for (const p of above) expect(await cache.get(p.b), `${p.b} (${p.similarity})`).toBe(answerTo(p.a));
  });

  test("of two stored rewordings that both clear the threshold, the closer one answers, whichever came first (first-match bug)", async () => {
    const { question, farther, closer } = CLOSEST_OF_TWO;
    for (const order of [[farther, closer], [closer, farther]]) {
      const cache = new SemanticCache({ embed: stagedEmbedder().embed });
      for (const p of order) await cache.put(p.b, answerTo(p.b));

      expect(await cache.get(question)).toBe(answerTo(closer.b));
    }
  });

  test("vectors three times too long change nothing: the cache makes them unit length (trusts-unit-length bug)", async () => {
    const cache = new SemanticCache({ embed: stagedEmbedder({ scale: 3 }).embed, threshold: 0.98 });
    const month = DANGEROUS_PAIRS.month;
    await cache.put(month.a, "March: $120.");
    await cache.put(CLOSE.a, answerTo(CLOSE.a));

    expect(await cache.get(month.b), "similarity 0.97 is below 0.98, however long the vectors").toBeNull();
    expect(await cache.get(CLOSE.b)).toBe(answerTo(CLOSE.a));
  });
});

describe("05 semantic cache: the guards", () => {
  test("an answer stored for tenant A is a miss for the same question from tenant B (tenant-leak bug)", async () => {
    const cache = new SemanticCache({ embed: stagedEmbedder().embed });
    const q = PARAPHRASES[2]!.a;
    await cache.put(q, "Tenant A's refund terms.", "tenant-a");

    expect(await cache.get(q, "tenant-b")).toBeNull();
    expect(await cache.get(q), "the default namespace is another tenant too").toBeNull();
    expect(await cache.get(q, "tenant-a")).toBe("Tenant A's refund terms.");
  });

  test("an entry is served ttl − 1 seconds after it was stored and missed at ttl + 1, with ttl 60 and the default 3600 (never-expires bug)", async () => {
    for (const ttl of [60, undefined]) {
      const seconds = ttl ?? 3600;
      const clock = fakeClock(1_000);
      const options = { embed: stagedEmbedder().embed, now: clock.now, ...(ttl === undefined ? {} : { ttl }) };
      const [early, late] = [new SemanticCache(options), new SemanticCache(options)];
      const q = PARAPHRASES[3]!.a;
      await early.put(q, answerTo(q));
      await late.put(q, answerTo(q));

      const edge = new SemanticCache(options);
      await edge.put(q, answerTo(q));

      clock.advance(seconds - 1);
      expect(await early.get(q), `ttl ${seconds}: ${seconds - 1} s after put`).toBe(answerTo(q));
      clock.advance(1);
      expect(await edge.get(q), `ttl ${seconds}: exactly ${seconds} s after put is no longer "less than ttl"`).toBeNull();
      clock.advance(1);
      expect(await late.get(q), `ttl ${seconds}: ${seconds + 1} s after put`).toBeNull();
    }
  });

  test("two hits and three misses give a hit rate of 0.4; a fresh cache reports 0 (hit-rate-ignores-misses bug)", async () => {
    const cache = new SemanticCache({ embed: stagedEmbedder().embed });
    expect(cache.hitRate, "the hit rate of a fresh cache, before any lookup").toBe(0);
    await cache.put(CLOSE.a, answerTo(CLOSE.a));

    for (const q of [CLOSE.a, CLOSE.b]) expect(await cache.get(q)).not.toBeNull();
    for (const p of NEAR_MISSES.slice(0, 3)) expect(await cache.get(p.b)).toBeNull();

    expect([cache.hits, cache.misses], "[hits, misses] after two hits and three near misses (hit-rate-ignores-misses bug)").toEqual([2, 3]);
    expect(cache.hitRate, "the hit rate after two hits and three near misses (hit-rate-ignores-misses bug)").toBeCloseTo(0.4, 9);
  });

  test("ten puts and three gets call embed at most thirteen times: stored questions are not embedded again (re-embeds-stored bug)", async () => {
    const fixture = stagedEmbedder();
    const cache = new SemanticCache({ embed: fixture.embed });
    const stored = PARAPHRASES.slice(0, 10);
    for (const p of stored) await cache.put(p.a, answerTo(p.a));

    for (const i of [1, 6, 9]) expect(await cache.get(stored[i]!.a)).toBe(answerTo(stored[i]!.a));
    expect(fixture.calls.length, "embed calls: one per put, one per get").toBeLessThanOrEqual(13);
  });
});

describe("05 semantic cache: what may be stored", () => {
  const general = "Open Settings, choose API keys and press Rotate.";

  test('questions with the word "my" are never stored (caches-personal bug)', () => {
    for (const q of ["What is my balance?", "Cancel my order, please", "Where is MY parcel?", "My invoice looks wrong"]) {
      expect(cacheable(q, general), q).toBe(false);
    }
  });

  test("questions with an order id are never stored (caches-order-ids bug)", () => {
    for (const q of ["Where is order 48213?", "Cancel ORD-2291 please", "Refund #100234", "Status of ticket 55210"]) {
      expect(cacheable(q, general), q).toBe(false);
    }
  });

  test("time-sensitive questions are never stored (caches-time-sensitive bug)", () => {
    for (const q of ["Is the API up right now?", "What is today's exchange rate?", "Which is the latest version?", "Is the EU region currently degraded?", "Any maintenance tonight?", "What is the current price of the Pro plan?"]) {
      expect(cacheable(q, general), q).toBe(false);
    }
  });

  test('general questions are stored, "dummy" and "know" included (substring-match bug)', () => {
    for (const q of ["How do I rotate an API key?", "What does error 429 mean?", "How do I set up a dummy webhook for testing?", "What should I know before migrating?", "Which regions does the service run in?"]) {
      expect(cacheable(q, general), q).toBe(true);
    }
  });
});
