/**
 * The chapter's healthy-vs-broken table (exercise 7), checked with numbers: its
 * arithmetic, its healthy column rebuilt on the provider token for token, what the
 * provider bills when that prefix breaks, and the backwards version of the table caught
 * by the one test that matters: a cache failure must never come out cheaper.
 */
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { usdOf, type TokenCounts } from "../../../checker/testing/index.js";
import { chapterBuilder, CHAPTER_CALL } from "../../../exercises/07-cache-audit/support/index.js";
import { useProvider } from "./support.js";

const provider = useProvider();

/** One row of the table, as a usage object. */
const row = (input: number, write: number, read: number, output: number): TokenCounts => ({
  input_tokens: input,
  cache_creation_input_tokens: write,
  cache_read_input_tokens: read,
  output_tokens: output,
});

/** The input side only, in units of the input price. */
const inputUnits = (u: TokenCounts) => u.input_tokens + (u.cache_creation_input_tokens ?? 0) * 1.25 + (u.cache_read_input_tokens ?? 0) * 0.1;

/** The sanity check the chapter asks for: a table in which losing the cache saves money is backwards. */
const cheaperWhenBroken = (healthy: TokenCounts, broken: TokenCounts) => usdOf(broken) < usdOf(healthy);

const HEALTHY = row(210, 6_100, 18_400, 400);
const BROKEN = row(210 + 18_400, 6_100, 0, 400);
/** The mistake: the 18,400 read tokens dropped instead of moved into input_tokens. */
const BACKWARDS = row(210, 6_100, 0, 400);

const money = (usd: number) => `$${usd.toFixed(4)}`;

describe("the chapter's cache table", () => {
  it("costs $0.0584 healthy and $0.1412 broken per call on claude-opus-5: 2.42x, and 2.71x on input alone", () => {
    const healthy = usdOf(HEALTHY);
    const broken = usdOf(BROKEN);
    const units = { healthy: inputUnits(HEALTHY), broken: inputUnits(BROKEN) };
    console.log(
      [
        "The chapter's table, in units of the input price ($5/M on claude-opus-5):",
        `  healthy  6,100 x 1.25 + 18,400 x 0.10 + 210 = ${units.healthy.toLocaleString("en-US")}`,
        `  broken   6,100 x 1.25 + 18,610         = ${units.broken.toLocaleString("en-US")}`,
        `  input alone: ${units.broken.toLocaleString("en-US")} / ${units.healthy.toLocaleString("en-US")} = ${(units.broken / units.healthy).toFixed(2)}`,
        `  + 400 output tokens x 5 = 2,000 to both: ${(units.broken + 2_000).toLocaleString("en-US")} / ${(units.healthy + 2_000).toLocaleString("en-US")} = ${(broken / healthy).toFixed(2)}`,
        `  per call: healthy ${money(healthy)}, broken ${money(broken)}`,
      ].join("\n"),
    );

    expect(healthy).toBeCloseTo(0.0584, 4);
    expect(broken).toBeCloseTo(0.1412, 4);
    expect(units).toEqual({ healthy: 9_675, broken: 26_235 });
    expect(Number((broken / healthy).toFixed(2))).toBe(2.42);
    expect(Number((units.broken / units.healthy).toFixed(2))).toBe(2.71);
  });

  it('catches the backwards table: dropping the read tokens makes the broken call "cheaper when broken" (0.84x, 0.81x on input)', () => {
    const ratio = usdOf(BACKWARDS) / usdOf(HEALTHY);
    const inputRatio = usdOf({ ...BACKWARDS, output_tokens: 0 }) / usdOf({ ...HEALTHY, output_tokens: 0 });
    console.log(`backwards table: broken/healthy = ${ratio.toFixed(2)}x (${inputRatio.toFixed(2)}x on input): cheaper when broken, so the table is wrong`);

    expect(Number(ratio.toFixed(2))).toBe(0.84);
    expect(Number(inputRatio.toFixed(2))).toBe(0.81);
    expect(cheaperWhenBroken(HEALTHY, BACKWARDS)).toBe(true);
    expect(cheaperWhenBroken(HEALTHY, BROKEN)).toBe(false);
  });

  it("the provider bills the healthy column token for token, and a broken prefix moves the read tokens into a new write, never out of the bill", async () => {
    const client = new Anthropic({ baseURL: provider().url("exact-reply", { out: CHAPTER_CALL.output }), apiKey: `lab-table-${process.pid}`, maxRetries: 0 });
    const healthyBuild = chapterBuilder();
    await client.messages.create(healthyBuild("first question"));
    const healthy = (await client.messages.create(healthyBuild("second question"))).usage;

    // The same call with a clock put at the top of the stable system prompt.
    const clocked = healthyBuild("third question");
    const [system] = clocked.system as Anthropic.TextBlockParam[];
    const broken = (await client.messages.create({ ...clocked, system: [{ ...system!, text: `Now: 2026-07-30T09:15:01Z. ${system!.text}` }] })).usage;
    const total = (u: TokenCounts) => u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
    console.log(
      [
        "On the provider (claude-opus-5 prices):",
        `  healthy: ${healthy.cache_read_input_tokens} read, ${healthy.cache_creation_input_tokens} written, ${healthy.input_tokens} uncached, ${healthy.output_tokens} out = ${money(usdOf(healthy))}`,
        `  clock in system: ${broken.cache_read_input_tokens} read, ${broken.cache_creation_input_tokens} written, ${broken.input_tokens} uncached, ${broken.output_tokens} out = ${money(usdOf(broken))} (${(usdOf(broken) / usdOf(healthy)).toFixed(2)}x)`,
      ].join("\n"),
    );

    expect(healthy).toMatchObject(HEALTHY);
    expect(usdOf(healthy)).toBeCloseTo(0.0584, 4);
    expect(broken.cache_read_input_tokens).toBe(0);
    // The clock line adds a few tokens of its own; everything else is the same prompt.
    expect(total(broken) - total(healthy)).toBeLessThan(30);
    expect(total(broken)).toBeGreaterThan(total(healthy));
    expect(cheaperWhenBroken(healthy, broken)).toBe(false);
    expect(usdOf(broken)).toBeGreaterThan(0.1412);
  });
});
