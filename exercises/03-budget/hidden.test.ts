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

const thrown = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
};

describe("03 budget", () => {
  test("the chapter's worked charge: 130k in, 1k out, 20k written, 40k read on opus is $0.82, state warn (forgets-output bug)", () => {
    const budget = new Budget(1.0);

    const cost = budget.charge(OPUS, usage({ input: 130_000, output: 1_000, write: 20_000, read: 40_000 }));

    // 0.65 + 0.025 + 0.125 + 0.02
    expect(cost).toBeCloseTo(0.82, CENTS);
    expect(budget.spent).toBeCloseTo(0.82, CENTS);
    expect(budget.calls).toBe(1);
    expect(budget.state).toBe("warn");
  });

  test("cache writes bill at 1.25× each model's own input price: $0.125 for 20k on opus, $0.075 on sonnet (cache-write-opus-rate bug)", () => {
    const budget = new Budget(10);

    expect(budget.charge(OPUS, usage({ write: 20_000 }))).toBeCloseTo(0.125, CENTS);
    expect(budget.charge(SONNET, usage({ write: 20_000 }))).toBeCloseTo(0.075, CENTS);
    expect(budget.spent).toBeCloseTo(0.2, CENTS);
  });

  test("cache reads bill at a tenth of each model's own input price: 40k on opus is $0.02, 100k on haiku $0.01 (cache-read-opus-rate bug)", () => {
    const budget = new Budget(10);

    expect(budget.charge(OPUS, usage({ read: 40_000 }))).toBeCloseTo(0.02, CENTS);
    expect(budget.charge(HAIKU, usage({ read: 100_000 }))).toBeCloseTo(0.01, CENTS);
    expect(budget.spent).toBeCloseTo(0.03, CENTS);
  });

  test('state is "ok" below 80 %, "warn" from exactly 80 % and "stop" from exactly 100 % (warn-after-80 bug)', () => {
    // Opus input is $5 per million tokens: 160,000 tokens is $0.80 and 200,000 is $1.00, both
    // exact in floating point. Each level is one charge on a fresh $1.00 budget, so the state
    // is judged on the spend itself, not on a long sum of rounded charges.
    const levels: Array<[number, string]> = [
      [158_000, "ok"], // 0.79
      [160_000, "warn"], // 0.80
      [162_000, "warn"], // 0.81
      [198_000, "warn"], // 0.99
      [200_000, "stop"], // 1.00
      [202_000, "stop"], // 1.01
    ];

    const states = levels.map(([tokens]) => {
      const budget = new Budget(1.0);
      budget.charge(OPUS, usage({ input: tokens }));
      return budget.state;
    });

    expect(states, "state at $0.79, 0.80, 0.81, 0.99, 1.00 and 1.01 of $1.00").toEqual(levels.map(([, state]) => state));
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
    expect((error as Error).message).toContain("3.25");
    expect((error as Error).message).toContain("2.5");
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
    expect(PRICE[OPUS]).toEqual({ in: 5e-6, out: 25e-6 });
    expect(PRICE[SONNET]).toEqual({ in: 3e-6, out: 15e-6 });
    expect(PRICE[HAIKU]).toEqual({ in: 1e-6, out: 5e-6 });
  });

  test("a growing run costs more every turn, and 20 turns cost well over twice what 10 did (input-as-running-total bug)", async () => {
    const session = await useScenario("growing");
    const budget = new Budget(1_000);
    const tools: Anthropic.Tool[] = [
      { name: "fetch_page", description: "Fetches one page of the report.", input_schema: { type: "object", properties: { page: { type: "integer" } } } },
    ];
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Read the report page by page and take notes." }];
    const perTurn: number[] = [];
    const total: number[] = [];

    for (let turn = 1; turn <= 20; turn++) {
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

    expect(budget.calls).toBe(20);
    // The whole history is resent every turn, so each turn's input is the last one's plus a turn.
    perTurn.slice(1).forEach((cost, i) => expect(cost, `turn ${i + 2} vs turn ${i + 1}`).toBeGreaterThan(perTurn[i]!));
    // n·P + a·n²/2: doubling the turns more than doubles the bill.
    expect(total[19]! / total[9]!, `$${total[9]!.toFixed(2)} at turn 10, $${total[19]!.toFixed(2)} at turn 20`).toBeGreaterThan(2.5);
  });
});
