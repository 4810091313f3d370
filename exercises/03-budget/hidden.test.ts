import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, test } from "vitest";
import { Budget, BudgetExceeded, PRICE } from "lab:impl";
import { useScenario } from "lab:test";

const OPUS = "claude-opus-5";
const SONNET = "claude-sonnet-5";
const HAIKU = "claude-haiku-4-5";

/** A usage object as the SDK returns it; cache fields default to null, as on a call without caching. */
const usage = (u: {
  input?: number;
  output?: number;
  write?: number | null;
  read?: number | null;
}): Anthropic.Usage =>
  ({
    input_tokens: u.input ?? 0,
    output_tokens: u.output ?? 0,
    cache_creation_input_tokens: u.write ?? null,
    cache_read_input_tokens: u.read ?? null,
    cache_creation: null,
    server_tool_use: null,
    service_tier: "standard",
  }) as unknown as Anthropic.Usage;

/** Money compared to a hundredth of a cent: floating-point sums are never exact. */
const CENTS = 4;


/** A price may be written 5e-6 or 5 * 1e-6: equal to one part in a billion is equal. */
const expectPrice = (actual: number | undefined, expected: number, label: string) =>
  expect(Math.abs((actual ?? Number.NaN) / expected - 1), `${label}: ${actual} per token, want ${expected}`).toBeLessThan(1e-9);

/** The dollar amounts written in a sentence, e.g. "$3.25 of $2.50" → [3.25, 2.5]. */
const amountsIn = (sentence: string): number[] => [...sentence.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((m) => Number(m[0].replace(/,/g, "")));

/**
 * A charge and a limit at which the file's OWN arithmetic puts the spend at exactly `share`
 * of the limit, however the comparison is written (spent / limit >= 0.8, spent >= 0.8 * limit,
 * in percent). Built from the file's own charge, so a price written 5 * 1e-6 instead of 5e-6
 * is judged on its own rounding, not on ours.
 */
function exactShare(share: number, nearTokens: number): { tokens: number; limit: number } {
  for (let tokens = nearTokens; tokens < nearTokens + 1_000; tokens++) {
    const spent = new Budget(1e9).charge(OPUS, usage({ input: tokens }));
    const guess = spent / share;
    for (let k = -4; k <= 4; k++) {
      const limit = guess * (1 + k * Number.EPSILON);
      const exact = spent / limit === share && share * limit === spent && (spent * 100) / limit === share * 100 && (spent / limit) * 100 === share * 100;
      if (exact) return { tokens, limit };
    }
  }
  throw new Error(`no charge near ${nearTokens} opus tokens lands on exactly ${share * 100} % of a limit`);
}

const thrown = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
};

describe("03 budget", () => {
  test("live: whatever the model answers, each call is charged at the usage the endpoint returned, and spent is their sum (forgets-output bug)", async () => {
    const session = await useScenario("echo", { live: true });
    const budget = new Budget(1);
    const charges: number[] = [];

    for (const content of ["Name one colour.", "Name one fruit."]) {
      const reply = await session.client.messages.create({ model: OPUS, max_tokens: 64, messages: [{ role: "user", content }] });
      charges.push(budget.charge(OPUS, reply.usage));
    }

    const paid = session.calls().map(({ usage: u }) => {
      const { input_tokens: input, output_tokens: output, cache_creation_input_tokens: write, cache_read_input_tokens: read } = u!;
      return input * 5e-6 + output * 25e-6 + (write ?? 0) * 6.25e-6 + (read ?? 0) * 0.5e-6;
    });
    expect(paid, "calls the endpoint answered").toHaveLength(2);
    paid.forEach((usd, i) => expect(charges[i], `call ${i + 1}'s charge`).toBeCloseTo(usd, 9));
    expect(budget.spent).toBeCloseTo(paid[0]! + paid[1]!, 9);
    expect(budget.calls).toBe(2);
  });

  test("the chapter's worked charge: 130k in, 1k out, 20k written, 40k read on opus is $0.82, state warn (forgets-output bug)", () => {
    const budget = new Budget(1.0);

    const cost = budget.charge(OPUS, usage({ input: 130_000, output: 1_000, write: 20_000, read: 40_000 }));

    // 0.65 + 0.025 + 0.125 + 0.02
    expect(cost).toBeCloseTo(0.82, CENTS);
    expect(budget.spent).toBeCloseTo(0.82, CENTS);
    expect(budget.calls).toBe(1);
    expect(budget.state).toBe("warn");
  });

  test("20k cache-write tokens on opus cost $0.125: 1.25× the input price, not plain input (cache-write-1x bug)", () => {
    const budget = new Budget(10);

    expect(budget.charge(OPUS, usage({ write: 20_000 }))).toBeCloseTo(0.125, CENTS);
    expect(budget.spent).toBeCloseTo(0.125, CENTS);
  });

  test("20k cache-write tokens on sonnet cost $0.075: 1.25× sonnet's own input price, not opus's $6.25/M (cache-write-opus-rate bug)", () => {
    const budget = new Budget(10);

    expect(budget.charge(SONNET, usage({ write: 20_000 }))).toBeCloseTo(0.075, CENTS);
    expect(budget.charge(HAIKU, usage({ write: 20_000 }))).toBeCloseTo(0.025, CENTS);
    expect(budget.spent).toBeCloseTo(0.1, CENTS);
  });

  test("40k cache-read tokens on opus cost $0.02, not the $0.20 of full price (cache-read-full-price bug)", () => {
    const budget = new Budget(10);

    expect(budget.charge(OPUS, usage({ read: 40_000 }))).toBeCloseTo(0.02, CENTS);
    expect(budget.spent).toBeCloseTo(0.02, CENTS);
  });

  test("100k cache-read tokens on haiku cost $0.01: a tenth of haiku's own input price, not opus's $0.50/M (cache-read-opus-rate bug)", () => {
    const budget = new Budget(10);

    expect(budget.charge(HAIKU, usage({ read: 100_000 }))).toBeCloseTo(0.01, CENTS);
    expect(budget.charge(SONNET, usage({ read: 100_000 }))).toBeCloseTo(0.03, CENTS);
    expect(budget.spent).toBeCloseTo(0.04, CENTS);
  });

  test("a usage that leaves the cache fields out charges input and output only (missing-cache-fields bug)", () => {
    const budget = new Budget(1.0);
    // The SDK's type makes both cache fields optional: absent is not the same as null.
    const bare = { input_tokens: 130_000, output_tokens: 1_000 } as unknown as Anthropic.Usage;

    expect(budget.charge(OPUS, bare)).toBeCloseTo(0.675, CENTS);
    expect(budget.spent).toBeCloseTo(0.675, CENTS);
    budget.charge(OPUS, bare);
    expect(budget.state, "$1.35 spent of $1.00").toBe("stop");
  });

  test('state is "ok" below 80 %, "warn" from 80 % up to the limit and "stop" past it (warn-at-90 bug)', () => {
    // Opus input is $5 per million tokens, so 158,000 tokens is $0.79 of a $1.00 limit.
    const levels: Array<[number, string]> = [
      [158_000, "ok"], // 0.79
      [162_000, "warn"], // 0.81
      [170_000, "warn"], // 0.85
      [178_000, "warn"], // 0.89
      [198_000, "warn"], // 0.99
      [202_000, "stop"], // 1.01
    ];

    const states = levels.map(([tokens]) => {
      const budget = new Budget(1.0);
      budget.charge(OPUS, usage({ input: tokens }));
      return budget.state;
    });

    expect(states, "state at $0.79, 0.81, 0.85, 0.89, 0.99 and 1.01 of $1.00").toEqual(levels.map(([, state]) => state));

    // The same shares of a $2.50 limit: the state is a fraction of the limit, whatever the limit.
    const ofTwoFifty = levels.map(([tokens]) => {
      const budget = new Budget(2.5);
      budget.charge(OPUS, usage({ input: tokens * 2.5 }));
      return budget.state;
    });
    expect(ofTwoFifty, "the same shares of $2.50").toEqual(levels.map(([, state]) => state));
  });

  test('a spend of exactly 80 % of the limit reads "warn" (warn-after-80 bug)', () => {
    // "Exactly" in the file's own prices: one charge on a fresh budget whose limit puts that
    // charge on the threshold, so no rounding of ours decides the verdict.
    const { tokens, limit } = exactShare(0.8, 160_000);
    const budget = new Budget(limit);

    budget.charge(OPUS, usage({ input: tokens }));

    expect(budget.state, `$${budget.spent} of $${budget.limit}`).toBe("warn");
  });

  test('a spend of exactly 100 % of the limit reads "stop", and guard throws (stop-after-100 bug)', () => {
    // The limit is the file's own price for 200,000 opus tokens, so one such charge is exactly all of it.
    const limit = new Budget(1e9).charge(OPUS, usage({ input: 200_000 }));
    const budget = new Budget(limit);

    budget.charge(OPUS, usage({ input: 200_000 }));

    expect(budget.state, `$${budget.spent} of $${budget.limit}`).toBe("stop");
    expect(thrown(() => budget.guard())).toBeInstanceOf(BudgetExceeded);
  });

  test("the wrap-up text comes once at 80 %, then never again (warning-every-turn bug)", () => {
    const budget = new Budget(1.0);

    budget.charge(OPUS, usage({ input: 100_000 })); // $0.50
    expect(budget.guard()).toBeNull();

    budget.charge(HAIKU, usage({ input: 320_000 })); // $0.82
    const note = budget.guard();
    expect(typeof note).toBe("string");
    expect(note!.trim().length).toBeGreaterThan(0);

    const later: Array<string | null> = [];
    for (let turn = 0; turn < 4; turn++) {
      budget.charge(HAIKU, usage({ input: 20_000 })); // +$0.02 a turn, up to $0.90
      later.push(budget.guard());
    }
    expect(later).toEqual([null, null, null, null]);
  });

  test("the hard stop throws BudgetExceeded naming what was spent and the limit (no-hard-stop bug)", () => {
    const budget = new Budget(2.5);

    budget.charge(OPUS, usage({ input: 650_000 })); // $3.25

    expect(budget.state).toBe("stop");
    const error = thrown(() => budget.guard());
    expect(error).toBeInstanceOf(BudgetExceeded);
    expect(error).toBeInstanceOf(Error);
    const amounts = amountsIn((error as Error).message);
    expect(amounts.some((usd) => Math.abs(usd - 3.25) < 0.005), `the $3.25 spent, in "${(error as Error).message}"`).toBe(true);
    expect(amounts.some((usd) => Math.abs(usd - 2.5) < 0.005), `the $2.50 limit, in "${(error as Error).message}"`).toBe(true);
    expect(thrown(() => budget.guard()), "the stop holds on every later turn").toBeInstanceOf(BudgetExceeded);
  });

  test("byModel sums to spent when a router mixes three models (by-model-overwrites bug)", () => {
    const budget = new Budget(100);
    const charges: Array<[string, Anthropic.Usage]> = [
      [OPUS, usage({ input: 12_000, output: 800, write: 6_000 })],
      [HAIKU, usage({ input: 3_000, output: 200 })],
      [SONNET, usage({ input: 8_000, output: 500, read: 6_000 })],
      [HAIKU, usage({ input: 2_500, output: 150, write: null, read: null })],
      [OPUS, usage({ input: 400, output: 900, read: 18_000 })],
    ];

    const costs = charges.map(([model, u]) => budget.charge(model, u));

    expect(budget.calls).toBe(5);
    expect(Object.keys(budget.byModel).sort()).toEqual([HAIKU, OPUS, SONNET]);
    const attributed = Object.values(budget.byModel).reduce((a, b) => a + b, 0);
    expect(attributed).toBeCloseTo(budget.spent, 9);
    expect(budget.byModel[HAIKU]).toBeCloseTo(costs[1]! + costs[3]!, 9);
    expect(budget.byModel[OPUS]).toBeCloseTo(costs[0]! + costs[4]!, 9);
    expect(budget.byModel[SONNET]).toBeCloseTo(costs[2]!, 9);
    const perToken: Array<[string, number, number]> = [
      [OPUS, 5e-6, 25e-6],
      [SONNET, 3e-6, 15e-6],
      [HAIKU, 1e-6, 5e-6],
    ];
    for (const [model, input, output] of perToken) {
      expectPrice(PRICE[model]?.in, input, `${model} input`);
      expectPrice(PRICE[model]?.out, output, `${model} output`);
    }
  });

  test("a growing run costs more every turn, and 10 turns cost well over twice what 5 did (input-as-running-total bug)", async () => {
    const session = await useScenario("growing");
    const budget = new Budget(1_000);
    const tools: Anthropic.Tool[] = [
      { name: "fetch_page", description: "Fetches one page of the report.", input_schema: { type: "object", properties: { page: { type: "integer" } } } },
    ];
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Read the report page by page and take notes." }];
    const perTurn: number[] = [];
    const total: number[] = [];

    for (let turn = 1; turn <= 10; turn++) {
      const reply = await session.client.messages.create({ model: OPUS, max_tokens: 4096, tools, messages });
      perTurn.push(budget.charge(OPUS, reply.usage));
      total.push(budget.spent);
      messages.push({ role: "assistant", content: reply.content });
      messages.push({
        role: "user",
        content: reply.content
          .filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use")
          .map((b) => ({ type: "tool_result" as const, tool_use_id: b.id, content: `page ${turn}: nothing new` })),
      });
    }

    expect(budget.calls).toBe(10);
    // The whole history is resent every turn, so each turn's input is the last one's plus a turn.
    perTurn.slice(1).forEach((cost, i) => expect(cost, `turn ${i + 2} vs turn ${i + 1}`).toBeGreaterThan(perTurn[i]!));
    // n·P + a·n²/2: doubling the turns more than doubles the bill.
    expect(total[9]! / total[4]!, `$${total[4]!.toFixed(2)} at turn 5, $${total[9]!.toFixed(2)} at turn 10`).toBeGreaterThan(2.5);
  });
});
