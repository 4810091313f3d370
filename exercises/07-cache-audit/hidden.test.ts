import { describe, expect, test } from "vitest";
import { auditCaching, findInvalidator } from "lab:impl";
import {
  CHAPTER_CALL,
  chapterBuilder,
  earlyBreakpointBuilder,
  healthyBuilder,
  modelRouterBuilder,
  rotatedKeysBuilder,
  shareBuilder,
  stampedBuilder,
  tenthBuilder,
  type BuildRequest,
} from "lab:support";
import { usdOf, useScenario } from "lab:test";


/** A session whose model answers in exactly the chapter's 400 output tokens. */
const session = () => useScenario("exact-reply", { options: { out: CHAPTER_CALL.output } });

/** One call before the audit, so even the audit's first call finds the prefix cached. */
async function warm(client: Awaited<ReturnType<typeof session>>["client"], build: BuildRequest): Promise<void> {
  await client.messages.create(build("a warm-up question nobody audits"));
}

type Audit = Awaited<ReturnType<typeof auditCaching>>;
const rows = (audit: Audit) =>
  audit.perCall.map((r, i) => `call ${i + 1}: ${r.cacheRead} read, ${r.cacheWrite} written, ${r.uncachedIn} uncached`).join("; ");
const describeAudit = (label: string, audit: Audit) => `${label}: hit rate ${audit.hitRate.toFixed(3)}, ${audit.verdict} (${rows(audit)})`;

describe("07 cache audit", () => {
  test("the chapter's healthy column, on the provider: the warm call reads 18,400, writes 6,100, leaves 210 uncached, and the verdict is HEALTHY (first-call-rate bug)", async () => {
    const s = await session();

    const audit = await auditCaching(s.client, chapterBuilder());
    const usd = usdOf(s.calls().at(-1)!.usage!);
    console.log(describeAudit("healthy", audit));
    console.log(`warm call at claude-opus-5 prices: $${usd.toFixed(4)} (the chapter: $0.0584; broken, $0.1412 = ${(0.1412 / usd).toFixed(2)}x)`);

    expect(audit.perCall).toHaveLength(3);
    expect(audit.perCall.at(-1)).toMatchObject({ cacheRead: 18_400, cacheWrite: 6_100, uncachedIn: 210 });
    expect(usd, "18,400 x $0.50/M + 6,100 x $6.25/M + 210 x $5/M + 400 x $25/M").toBeCloseTo(0.0584, 4);
    expect(audit.hitRate).toBeGreaterThan(0.7);
    expect(audit.verdict.startsWith("HEALTHY"), audit.verdict).toBe(true);
  });

  test("the hit rate counts writes: a warm call reading 18,400 of 24,710 tokens is 0.745, not 0.99 (write-left-out bug)", async () => {
    const s = await session();
    const build = chapterBuilder();
    await warm(s.client, build);

    const audit = await auditCaching(s.client, build);
    console.log(describeAudit("healthy, warmed", audit));

    expect(audit.hitRate, "18,400 / (18,400 + 6,100 + 210)").toBeCloseTo(18_400 / 24_710, 2);
  });

  test("a breakpoint covering only the first quarter of a stable prompt is WEAK (no-weak bug)", async () => {
    const s = await session();
    const build = earlyBreakpointBuilder();
    await warm(s.client, build);

    const audit = await auditCaching(s.client, build);
    console.log(describeAudit("early breakpoint", audit));

    expect(audit.hitRate).toBeGreaterThan(0.1);
    expect(audit.hitRate).toBeLessThan(0.7);
    expect(audit.verdict.startsWith("WEAK"), audit.verdict).toBe(true);
  });

  test("a warm call reading exactly 1,100 of 11,000 tokens (a hit rate of 0.1) is BROKEN: WEAK needs more than 0.1 (weak-at-10 bug)", async () => {
    const s = await session();
    const build = tenthBuilder();
    await warm(s.client, build);

    const audit = await auditCaching(s.client, build);
    console.log(describeAudit("a tenth read", audit));

    expect(audit.perCall.at(-1)).toMatchObject({ cacheRead: 1_100, cacheWrite: 0, uncachedIn: 9_900 });
    expect(audit.hitRate).toBeCloseTo(0.1, 3);
    expect(audit.verdict.startsWith("BROKEN"), audit.verdict).toBe(true);

    // The same at the other line: exactly 0.7 is not above 0.7, so it is WEAK, not HEALTHY.
    const s2 = await session();
    const seventh = shareBuilder(7_700, 3_300);
    await warm(s2.client, seventh);
    const atSeven = await auditCaching(s2.client, seventh);
    console.log(describeAudit("seven tenths read", atSeven));
    expect(atSeven.perCall.at(-1)).toMatchObject({ cacheRead: 7_700, cacheWrite: 0, uncachedIn: 3_300 });
    expect(atSeven.verdict.startsWith("WEAK"), atSeven.verdict).toBe(true);
  });

  test("a null or missing cache field counts as 0 in every row, as the API may send either (null-cache-fields bug)", async () => {
    let replies = 0;
    // The provider always reports both cache fields; this client sees them null, absent, null.
    const nulling: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body = (await response.json()) as { usage?: Record<string, unknown> };
      if (body.usage) {
        for (const field of ["cache_creation_input_tokens", "cache_read_input_tokens"]) {
          if (replies % 2 === 0) body.usage[field] = null;
          else delete body.usage[field];
        }
        replies += 1;
      }
      const headers = new Headers(response.headers);
      headers.delete("content-length");
      return new Response(JSON.stringify(body), { status: response.status, headers });
    };
    const s = await useScenario("exact-reply", { client: { fetch: nulling } });

    const audit = await auditCaching(s.client, healthyBuilder());
    console.log(describeAudit("cache fields null or absent", audit));

    expect(audit.perCall).toHaveLength(3);
    for (const row of audit.perCall) {
      expect(row.cacheWrite).toBe(0);
      expect(row.cacheRead).toBe(0);
      expect(row.uncachedIn).toBeGreaterThan(0);
    }
    expect(audit.hitRate).toBe(0);
  });

  test("a clock in the system prompt flips the verdict to BROKEN: over n = 4 calls every one writes and none reads (ignores-n bug)", async () => {
    const s = await session();

    const audit = await auditCaching(s.client, stampedBuilder(), 4);
    console.log(describeAudit("timestamp in system", audit));

    expect(s.calls()).toHaveLength(4);
    expect(audit.perCall).toHaveLength(4);
    for (const row of audit.perCall) {
      expect(row.cacheRead).toBe(0);
      expect(row.cacheWrite).toBeGreaterThan(1_024);
    }
    expect(audit.hitRate).toBe(0);
    expect(audit.verdict.startsWith("BROKEN"), audit.verdict).toBe(true);

    // Healthy for two calls, stamped on the third: the verdict is the last call's, whatever n is.
    const s2 = await session();
    let built = 0;
    const [steady, stamped] = [healthyBuilder(), stampedBuilder()];
    const turning = await auditCaching(s2.client, (q) => (++built < 3 ? steady(q) : stamped(q)), 3);
    console.log(describeAudit("healthy, then stamped", turning));
    expect(turning.perCall[1]!.cacheRead, "the second call reads").toBeGreaterThan(0);
    expect(turning.verdict.startsWith("BROKEN"), turning.verdict).toBe(true);
  });

  test("a tool whose keys come back in another order on every call flips the verdict to BROKEN: the audit sends what the builder built (sorted-request bug)", async () => {
    const s = await session();

    const audit = await auditCaching(s.client, rotatedKeysBuilder());
    console.log(describeAudit("tool keys reordered", audit));

    expect(audit.perCall.at(-1)!.cacheRead).toBe(0);
    expect(audit.verdict.startsWith("BROKEN"), audit.verdict).toBe(true);
  });

  test("a router that puts each call on another model flips the verdict to BROKEN: entries are kept per model (pinned-model bug)", async () => {
    const s = await session();

    const audit = await auditCaching(s.client, modelRouterBuilder());
    console.log(describeAudit("model switched per call", audit));

    expect(s.bodies().map((b) => b.model)).toEqual(["claude-opus-5", "claude-sonnet-5", "claude-haiku-4-5"]);
    expect(audit.verdict.startsWith("BROKEN"), audit.verdict).toBe(true);
  });

  test("findInvalidator names the line holding the clock (says-not-where bug)", () => {
    const finding = findInvalidator(stampedBuilder());
    console.log(`timestamp in system:\n${finding}`);

    expect(finding).toContain("2026-07-30");
    expect(finding).not.toContain("identical");
    expect(finding.split("\n").length, "the old and the new line, each on a line of its own").toBeGreaterThanOrEqual(2);
  });

  test("findInvalidator catches a tool's keys in another order, which a sorted diff cannot see (sorted-diff bug)", () => {
    const finding = findInvalidator(rotatedKeysBuilder());
    console.log(`tool keys reordered:\n${finding}`);

    expect(finding.trim()).not.toBe("");
    expect(finding).not.toContain("identical");
  });

  test("findInvalidator says identical for a healthy builder, and never reports the probe itself (probe-kept bug)", () => {
    const withDefaults = findInvalidator(healthyBuilder());
    const withOwnProbes = findInvalidator(healthyBuilder(), "What is rule 3?", "What does rule 40 say?");

    // Saying "identical" is the whole verdict: a sentence that quotes the probes is fine.
    expect(withDefaults).toContain("identical");
    expect(withOwnProbes).toContain("identical");
  });
});
