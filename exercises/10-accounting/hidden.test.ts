import Anthropic from "@anthropic-ai/sdk";
import { afterEach, describe, expect, test, vi } from "vitest";
import { accounted, accountedStream, Ledger, LEDGER } from "lab:impl";
import { tokenText, useScenario, type ScenarioSession } from "lab:test";

const OPUS = "claude-opus-5";
const HAIKU = "claude-haiku-4-5";
/** Dollars to 4 places (within $0.00005), shares and rates to 3: the lesson's tolerance. */
const DOLLARS = 4;
const SHARES = 3;

type Usage = Anthropic.Usage;
const usage = (input: number, output: number, write: number | null = null, read: number | null = null): Usage =>
  ({
    input_tokens: input,
    output_tokens: output,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
    cache_creation: null,
    server_tool_use: null,
    service_tier: "standard",
  }) as unknown as Usage;

type LedgerRow = Ledger["rows"][number];
const rowUsd = (r: LedgerRow) => r.usdIn + r.usdOut + r.usdWrite + r.usdRead;
const ledgerRowsSince = (from: number) => LEDGER.rows.slice(from);

/** The walk-through's four counts per turn: uncached input, cache write, cache read, output. */
const TURNS = [
  { input: 20, write: 6_100, read: 0, output: 180 },
  { input: 0, write: 1_300, read: 6_100, output: 150 },
  { input: 0, write: 900, read: 7_400, output: 120 },
  { input: 0, write: 700, read: 8_300, output: 260 },
  { input: 40, write: 400, read: 9_000, output: 300 },
];
const EPHEMERAL = { type: "ephemeral" } as const;

/**
 * Five real calls on the `walkthrough` scenario, each prompt built to the chapter's token
 * counts: a 6,100-token cached system prompt, then each turn adds the model's reply and a
 * user message that ends at the next breakpoint. Every usage is recorded in a fresh ledger.
 */
async function runWalkthrough(): Promise<{ ledger: Ledger; usages: Usage[] }> {
  const session = await useScenario("walkthrough");
  const ledger = new Ledger();
  const usages: Usage[] = [];
  const system: Anthropic.TextBlockParam[] = [{ type: "text", text: tokenText(6_100, "policy"), cache_control: EPHEMERAL }];
  const history: Anthropic.MessageParam[] = [];
  // What each turn's user message holds, so the prompt reaches the next turn's total.
  const userTurns: Anthropic.TextBlockParam[][] = [
    [{ type: "text", text: tokenText(20, "question") }],
    [{ type: "text", text: tokenText(1_100, "result"), cache_control: EPHEMERAL }],
    [{ type: "text", text: tokenText(750, "artifact"), cache_control: EPHEMERAL }],
    [{ type: "text", text: tokenText(580, "feedback"), cache_control: EPHEMERAL }],
    [
      { type: "text", text: tokenText(140, "citation"), cache_control: EPHEMERAL },
      { type: "text", text: tokenText(40, "volatile") },
    ],
  ];
  for (const [turn, blocks] of userTurns.entries()) {
    // One breakpoint on the newest user message only: older ones are already cached.
    for (const message of history) {
      if (message.role === "user" && Array.isArray(message.content)) {
        message.content = message.content.map((b) => ({ ...b, cache_control: undefined }) as Anthropic.TextBlockParam);
      }
    }
    history.push({ role: "user", content: blocks });
    const reply = await session.client.messages.create({ model: OPUS, max_tokens: 1024, system, messages: history });
    ledger.record(`turn ${turn + 1}`, OPUS, reply.usage, 0);
    usages.push(reply.usage);
    history.push({ role: "assistant", content: reply.content });
  }
  return { ledger, usages };
}

/** performance.now and Date.now, both driven by hand; restored after each test. */
function fakeClock() {
  let ms = 1_000;
  vi.spyOn(performance, "now").mockImplementation(() => ms);
  vi.spyOn(Date, "now").mockImplementation(() => 1_700_000_000_000 + ms);
  return { advance: (by: number) => void (ms += by) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("10 accounting", () => {
  test("live: whatever the model answers, a call and a streamed call are each booked at the tokens the endpoint reported, at the model's prices (stream-start-usage bug)", async () => {
    const session = await useScenario("echo", { live: true });
    const from = LEDGER.rows.length;
    const ask = (content: string) => session.client.messages.create({ model: OPUS, max_tokens: 64, messages: [{ role: "user", content }] });
    const streamed = (content: string) => session.client.messages.stream({ model: OPUS, max_tokens: 64, messages: [{ role: "user", content }] });

    await accounted("live", OPUS, ask)("Say hello in five words.");
    await accountedStream("live", OPUS, streamed)("Say goodbye in five words.");

    const served = session.calls().map((c) => c.usage!);
    const rows = ledgerRowsSince(from);
    expect(served, "calls the endpoint answered").toHaveLength(2);
    const counts = (u: Pick<Usage, "input_tokens" | "output_tokens" | "cache_creation_input_tokens" | "cache_read_input_tokens">) => [u.input_tokens, u.output_tokens, u.cache_creation_input_tokens ?? 0, u.cache_read_input_tokens ?? 0];
    expect(rows.map((r) => [r.in, r.out, r.cacheWrite, r.cacheRead]), "each row's four counts, against the usage returned").toEqual(served.map(counts));
    rows.forEach((row, i) => {
      const u = served[i]!;
      const paid = u.input_tokens * 5e-6 + u.output_tokens * 25e-6 + (u.cache_creation_input_tokens ?? 0) * 6.25e-6 + (u.cache_read_input_tokens ?? 0) * 0.5e-6;
      expect(rowUsd(row)).toBeCloseTo(paid, 9);
    });
  });

  // Run once, by the first test that needs it (inside a test, so a live run can skip it); each
  // test that needs it reports a failure itself.
  let shared: Promise<{ ledger: Ledger; usages: Usage[] }> | null = null;
  const walkthrough = () => (shared ??= runWalkthrough());

  test("the five-turn walk-through prices to $0.0427, 0.0149, 0.0123, 0.0150 and 0.0147: $0.0997 (per-million-prices bug)", async () => {
    const { ledger, usages } = await walkthrough();

    // The provider charged exactly the chapter's token counts.
    expect(
      usages.map((u) => ({ input: u.input_tokens, write: u.cache_creation_input_tokens, read: u.cache_read_input_tokens, output: u.output_tokens })),
    ).toEqual(TURNS);
    expect(ledger.rows.map((r) => [r.in, r.cacheWrite, r.cacheRead, r.out])).toEqual(TURNS.map((t) => [t.input, t.write, t.read, t.output]));

    const perTurn = ledger.rows.map(rowUsd);
    [0.0427, 0.0149, 0.0123, 0.015, 0.0147].forEach((want, i) => expect(perTurn[i], `turn ${i + 1}`).toBeCloseTo(want, DOLLARS));
    expect(ledger.total()).toBeCloseTo(0.0997, DOLLARS);
    console.log(`walk-through: ${perTurn.map((d) => d.toFixed(4)).join(", ")}; total ${ledger.total().toFixed(4)}`);
  });

  test("whereTheMoneyWent reads the four columns: output 0.253, cache write 0.589, cache read 0.154, hit rate 0.765 (pre-summed bug)", async () => {
    const { ledger } = await walkthrough();

    // Turn 1's four columns in the ratio of their rates: 20 × 1 : 180 × 5 : 6,100 × 1.25 : 0.
    const first = ledger.rows[0]!;
    expect(first.usdOut / first.usdIn, "output over uncached input").toBeCloseTo((180 * 5) / 20, 6);
    expect(first.usdWrite / first.usdIn, "cache write over uncached input").toBeCloseTo((6_100 * 1.25) / 20, 6);
    expect(first.usdRead).toBe(0);

    const report = ledger.whereTheMoneyWent();
    expect(report.totalUsd, "the report's total is the ledger's").toBeCloseTo(ledger.total(), DOLLARS);
    expect(report.shareOutput).toBeCloseTo(0.253, SHARES);
    expect(report.shareCacheWrite).toBeCloseTo(0.589, SHARES);
    expect(report.shareCacheRead).toBeCloseTo(0.154, SHARES);
    expect(report.shareUncachedInput).toBeCloseTo(0.003, SHARES);
    expect(report.cacheHitRate).toBeCloseTo(0.765, SHARES);
    expect(ledger.cacheHitRate()).toBeCloseTo(0.765, SHARES);

    const empty = new Ledger().whereTheMoneyWent();
    expect(empty, "an empty ledger reports zeros, not NaN").toEqual({
      totalUsd: 0,
      shareOutput: 0,
      shareUncachedInput: 0,
      shareCacheWrite: 0,
      shareCacheRead: 0,
      cacheHitRate: 0,
    });
  });

  test("a streamed call records the final message's usage, not what message_start carried (stream-start-usage bug)", async () => {
    const session = await useScenario("echo");
    const from = LEDGER.rows.length;
    const question = "Stream me back this whole sentence about rotating API keys, token by token, please.";

    const streamed = accountedStream("stream", OPUS, (content: string) =>
      session.client.messages.stream({ model: OPUS, max_tokens: 256, messages: [{ role: "user", content }] }),
    );
    const final = await streamed(question);

    const served = session.calls()[0]!.usage!;
    expect(final.content[0]).toMatchObject({ type: "text", text: `You said: ${question}` });
    expect(final.usage.output_tokens, "message_start carries 1; the real count is larger").toBeGreaterThan(1);
    const rows = ledgerRowsSince(from);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ label: "stream", model: OPUS, in: served.input_tokens, out: served.output_tokens });
    expect(rows[0]!.out).toBe(final.usage.output_tokens);
  });

  test("a three-call run adds exactly three rows, each timed while its call was in flight (timer-before-await bug)", async () => {
    const session = await useScenario("capital-weather");
    const clock = fakeClock();
    const latencies = [120, 80, 200];
    let call = 0;
    const ask = accounted("agent", OPUS, async (messages: Anthropic.MessageParam[]) => {
      const reply = await session.client.messages.create({ model: OPUS, max_tokens: 512, tools: TOOLS, messages });
      clock.advance(latencies[call++]!);
      return reply;
    });
    const from = LEDGER.rows.length;

    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "What is the weather in the capital of France?" }];
    for (let turn = 0; turn < 5; turn++) {
      const reply = await ask(messages);
      if (reply.stop_reason !== "tool_use") break;
      messages.push({ role: "assistant", content: reply.content });
      messages.push({
        role: "user",
        content: reply.content
          .filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use")
          .map((b) => ({ type: "tool_result" as const, tool_use_id: b.id, content: b.name === "get_capital" ? "Paris" : "sunny, 21 °C" })),
      });
    }

    const served = session.calls();
    expect(served, "the scenario's shape: capital, weather, answer").toHaveLength(3);
    const rows = ledgerRowsSince(from);
    expect(rows, "one row per model call, no more, no fewer").toHaveLength(served.length);
    expect(rows.map((r) => r.ms), "ms is the clock's movement during each call").toEqual(latencies.map((ms) => expect.closeTo(ms, 6)));
    expect(rows.map((r) => [r.label, r.in, r.out])).toEqual(served.map((c) => ["agent", c.usage!.input_tokens, c.usage!.output_tokens]));
  });

  test("byLabel adds up calls, dollars and milliseconds per call site (by-label-overwrites bug)", () => {
    const ledger = new Ledger();
    ledger.record("planner", OPUS, usage(12_000, 800, 6_000, null), 900);
    ledger.record("summarizer", HAIKU, usage(30_000, 1_500), 400);
    ledger.record("planner", OPUS, usage(400, 1_200, null, 18_000), 700);
    ledger.record("summarizer", HAIKU, usage(28_000, 1_100, undefined as unknown as null, undefined as unknown as null), 350);
    ledger.record("planner", OPUS, usage(900, 2_000, 300, 18_000), 1_100);

    const byLabel = ledger.byLabel();

    const spentBy = (label: string) => ledger.rows.filter((r) => r.label === label).reduce((sum, r) => sum + rowUsd(r), 0);
    const planner = spentBy("planner");
    const summarizer = spentBy("summarizer");
    expect(planner, "the planner's three opus calls outspend the summarizer's two on haiku").toBeGreaterThan(summarizer);
    expect(Object.keys(byLabel).sort()).toEqual(["planner", "summarizer"]);
    expect(byLabel["planner"]).toEqual({ calls: 3, usd: expect.closeTo(planner, 6), ms: 2_700 });
    expect(byLabel["summarizer"]).toEqual({ calls: 2, usd: expect.closeTo(summarizer, 6), ms: 750 });
    expect(byLabel["planner"]!.usd + byLabel["summarizer"]!.usd).toBeCloseTo(ledger.total(), 9);
  });

  test("a ledger passed in is the one written to, and LEDGER only when none is given (ignores-ledger bug)", async () => {
    const session = await useScenario("echo");
    const send = (content: string) => session.client.messages.create({ model: HAIKU, max_tokens: 64, messages: [{ role: "user", content }] });
    const mine = new Ledger();
    const before = LEDGER.rows.length;

    await accounted("per-run", HAIKU, send, mine)("first");
    await accounted("per-run", HAIKU, send, mine)("second");

    expect(mine.rows.map((r) => r.label)).toEqual(["per-run", "per-run"]);
    expect(LEDGER.rows.length, "the global ledger is someone else's report").toBe(before);

    await accounted("global", HAIKU, send)("third");
    expect(ledgerRowsSince(before).map((r) => r.label)).toEqual(["global"]);
    expect(mine.rows).toHaveLength(2);
  });

  test("retries reach the ledger: two 429s then success leave three rows, the failures at zero tokens (failed-attempt-unrecorded bug)", async () => {
    // Each request takes 40 ms on the test's clock, failed ones too.
    const clock = fakeClock();
    const slow: typeof fetch = (input, init) => (clock.advance(40), fetch(input, init));
    const session = await useScenario("rate-limited", { options: { faults: 2 }, client: { fetch: slow } });
    const triage = accounted("triage", OPUS, () =>
      session.client.messages.create({ model: OPUS, max_tokens: 64, messages: [{ role: "user", content: "Route this ticket." }] }),
    );
    const from = LEDGER.rows.length;
    let failures = 0;

    // A retry around the accounted call, without the sleeping. Which errors deserve a retry is
    // exercise 2's business (and the next test's); here every failure gets one, up to 3 attempts.
    let reply: Anthropic.Message | undefined;
    for (let attempt = 1; attempt <= 3 && !reply; attempt++) {
      try {
        reply = await triage();
      } catch {
        failures++;
      }
    }

    expect(failures).toBe(2);
    expect(reply?.stop_reason).toBe("end_turn");
    const served = session.calls();
    expect(served.map((c) => c.status)).toEqual([429, 429, 200]);
    const rows = ledgerRowsSince(from);
    expect(rows.map((r) => [r.label, r.in, r.out, r.cacheWrite, r.cacheRead])).toEqual([
      ["triage", 0, 0, 0, 0],
      ["triage", 0, 0, 0, 0],
      ["triage", served[2]!.usage!.input_tokens, served[2]!.usage!.output_tokens, 0, 0],
    ]);
    expect(rows.slice(0, 2).map(rowUsd)).toEqual([0, 0]);
    expect(rows.map((r) => r.ms), "each attempt timed, the failed ones too").toEqual([40, 40, 40]);
  });

  test("a failed call's error comes out of accounted as it was thrown, so a retry can still classify it (rethrow-wrapped bug)", async () => {
    const limited = await useScenario("rate-limited", { options: { faults: 1, retryAfter: 7 } });
    const invalid = await useScenario("bad-request");
    const ask = (session: ScenarioSession) => () =>
      session.client.messages.create({ model: OPUS, max_tokens: 64, messages: [{ role: "user", content: "Route this ticket." }] });

    const tooSoon = await accounted("triage", OPUS, ask(limited))().catch((err: unknown) => err);
    expect(tooSoon, "a 429 is still a RateLimitError").toBeInstanceOf(Anthropic.RateLimitError);
    expect((tooSoon as InstanceType<typeof Anthropic.RateLimitError>).headers?.get("retry-after"), "with its retry-after").toBe("7");

    const wrong = await accounted("triage", OPUS, ask(invalid))().catch((err: unknown) => err);
    expect(wrong, "a 400 is still a BadRequestError, which no retry should repeat").toBeInstanceOf(Anthropic.BadRequestError);

    const planted = new TypeError("the tool's own bug");
    const own = await accounted("triage", OPUS, () => Promise.reject(planted))().catch((err: unknown) => err);
    expect(own, "the very object the call threw").toBe(planted);
  });

  test("a model with no price throws an error naming it and records nothing (unknown-model-free bug)", () => {
    const ledger = new Ledger();
    let error: unknown;
    try {
      ledger.record("router", "claude-opus-9", usage(1_000, 100), 12);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("claude-opus-9");
    expect(ledger.rows).toEqual([]);
    expect(ledger.total()).toBe(0);

    // The other two models have their own prices: a million tokens each way.
    ledger.record("router", "claude-sonnet-5", usage(1_000_000, 1_000_000), 12);
    ledger.record("router", "claude-haiku-4-5", usage(1_000_000, 1_000_000), 12);
    expect(ledger.rows.map((r) => [r.usdIn, r.usdOut].map((usd) => Number(usd.toFixed(9))))).toEqual([[3, 15], [1, 5]]);
  });

  test("a stream cut off after message_start is recorded with the input it reported, then the retry's stream (stream-failure-free bug)", async () => {
    const clock = fakeClock();
    const slow: typeof fetch = (input, init) => (clock.advance(25), fetch(input, init));
    const session: ScenarioSession = await useScenario("drop-mid-stream", { options: { faults: 1 }, client: { fetch: slow } });
    const streamed = accountedStream("stream", OPUS, () =>
      session.client.messages.stream({ model: OPUS, max_tokens: 256, messages: [{ role: "user", content: "Summarise the rotation policy for API keys in one line." }] }),
    );
    const from = LEDGER.rows.length;

    await expect(streamed()).rejects.toThrow();
    const final = await streamed();

    const [cut, whole] = session.calls();
    expect(cut!.outcome).toBe("dropped");
    const rows = ledgerRowsSince(from);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.in, "message_start had reported the prompt's input tokens").toBe(cut!.usage!.input_tokens);
    expect(rows[0]!.in).toBeGreaterThan(0);
    expect(rows[0]!.out).toBeLessThanOrEqual(1);
    expect(rows[1]!.in, "the retry's stream is a row of its own").toBe(whole!.usage!.input_tokens);
    expect(final.stop_reason).toBe("end_turn");
    expect(rows.map((r) => r.ms), "both streams timed on the clock").toEqual([25, 25]);

    // Cut before any header: no message_start, so zero tokens, and the connection's own error comes out.
    const early = await useScenario("drop-before-headers", { options: { faults: 1 } });
    const before = LEDGER.rows.length;
    const failed = await accountedStream("stream", OPUS, () =>
      early.client.messages.stream({ model: OPUS, max_tokens: 64, messages: [{ role: "user", content: "One line, please." }] }),
    )().catch((err: unknown) => err);
    expect(failed, "the connection error itself").toBeInstanceOf(Anthropic.APIConnectionError);
    expect(ledgerRowsSince(before).map((r) => [r.in, r.out])).toEqual([[0, 0]]);
  });
});

const TOOLS: Anthropic.Tool[] = [
  { name: "get_capital", description: "The capital city of a country.", input_schema: { type: "object", properties: { country: { type: "string" } }, required: ["country"] } },
  { name: "get_weather", description: "Today's weather in a city.", input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
];
