import type Anthropic from "@anthropic-ai/sdk";
import { describe, expect, test } from "vitest";
import { authorize, goalPredicate, run } from "lab:impl";
import { GUARD_NUDGE, referenceParts, virtualClock, WRAP_UP, type PartsOptions } from "lab:support";
import { CACHE_READ, CACHE_WRITE, PRICES, useScenario, type ScenarioSession } from "lab:test";

const QUESTION = "how do I rotate an API key";
const FEEDBACK_MARK = "no citation"; // what the contract's PREDICATE_FEEDBACK says
const DOLLARS = 1e-9;

/** More model calls than any run here needs: a loop that never stops is cut off by the network. */
const FUSE = 30;

async function setup(scenario: string, options: Record<string, string | number | boolean> = {}, parts: Omit<PartsOptions, "client"> = {}) {
  const session: ScenarioSession = await useScenario(scenario, { options, fuse: FUSE });
  return { session, ...referenceParts({ client: session.client, ...parts }) };
}

const lastUser = (body: Anthropic.MessageCreateParams) => JSON.stringify(body.messages.filter((m) => m.role === "user").at(-1)?.content);
const toolResults = (body: Anthropic.MessageCreateParams) =>
  body.messages.flatMap((m) => (m.role === "user" && Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === "tool_result") as Anthropic.ToolResultBlockParam[];

/** Indices of user messages that follow another user message: a turn's answer split in two. */
const splitUserMessages = (body: Anthropic.MessageCreateParams) =>
  body.messages.flatMap((m, i) => (i > 0 && m.role === "user" && body.messages[i - 1]!.role === "user" ? [i] : []));

/** The chapter's walk-through for acme, priced at claude-opus-5: what this run's ledger must come to. */
const CHAPTER = { perTurn: [0.0427, 0.0149, 0.0123, 0.015, 0.0147], total: 0.0997, output: 0.253, cacheWrite: 0.589, cacheRead: 0.154, hitRate: 0.765 };
/** A hundredth of a cent per turn; half a point on a share or the hit rate. */
const PER_TURN = 1e-4;
const SHARE = 0.005;

type Row = ReturnType<typeof referenceParts>["rows"][number];

/** Where the money went, rebuilt from the ledger's rows: the four columns priced, then shared out. */
function whereTheMoneyWent(rows: Row[]) {
  const price = PRICES["claude-opus-5"]!;
  const sum = (f: (r: Row) => number) => rows.reduce((n, r) => n + f(r), 0);
  const [input, output] = [sum((r) => r.usage.input_tokens), sum((r) => r.usage.output_tokens)];
  const [write, read] = [sum((r) => r.usage.cache_creation_input_tokens ?? 0), sum((r) => r.usage.cache_read_input_tokens ?? 0)];
  const total = input * price.in + output * price.out + write * price.in * CACHE_WRITE + read * price.in * CACHE_READ;
  const hitRate = read / (read + write + input);
  return {
    perTurn: rows.map((r) => r.usd),
    total,
    output: (output * price.out) / total,
    cacheWrite: (write * price.in * CACHE_WRITE) / total,
    cacheRead: (read * price.in * CACHE_READ) / total,
    hitRate,
    verdict: hitRate > 0.7 ? "HEALTHY" : hitRate > 0.1 ? "WEAK" : "BROKEN",
  };
}

// Every test opens sessions of its own and shares nothing, so they run side by side (describe.concurrent):
// exercise 11's long runs overlap, so a save's verdict comes sooner; what each test printed stays its own.
describe.concurrent("the chapter's walk-through, rebuilt from this run's ledger", () => {
  test("five calls price to $0.0427 first, then 0.0149, 0.0123, 0.0150 and 0.0147 ($0.0997), hit rate 0.765: the conversation is cached too (prefix-only-cache bug)", async () => {
    const t = await setup("acme-triage");
    const result = await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    expect(result).toMatchObject({ ok: true, source: "model", reason: "answered" });
    // Every figure starts from turn 1's prompt: the 6,060 tokens of tools and SYSTEM (as the stub gives it) and the 7-token question.
    const first = t.session.calls()[0]!.usage!;
    const prompt = first.input_tokens + (first.cache_creation_input_tokens ?? 0) + (first.cache_read_input_tokens ?? 0);
    expect(prompt, "turn 1's prompt: the tools, SYSTEM and the question").toBe(6_067);
    // A breakpoint on the system block alone caches the tools and the system prompt, never the conversation.
    const reads = t.session.calls().map((c) => c.usage?.cache_read_input_tokens ?? 0);
    console.log(`cache reads per turn: ${reads.join(", ")} tokens`);
    for (let turn = 2; turn < reads.length; turn++) {
      expect(reads[turn], `turn ${turn + 1} reads what turn ${turn} sent, not only the system prompt (prefix-only-cache bug)`).toBeGreaterThan(reads[turn - 1]!);
    }
    const money = whereTheMoneyWent(t.rows);
    console.log(
      `walk-through: ${money.perTurn.map((d) => d.toFixed(4)).join(", ")}; total ${money.total.toFixed(4)}; output ${money.output.toFixed(3)}, ` +
        `cache write ${money.cacheWrite.toFixed(3)}, cache read ${money.cacheRead.toFixed(3)}; hit rate ${money.hitRate.toFixed(3)} ${money.verdict}`,
    );
    expect(money.perTurn, "one ledger row per model call").toHaveLength(CHAPTER.perTurn.length);
    CHAPTER.perTurn.forEach((want, i) => expect(Math.abs(money.perTurn[i]! - want), `turn ${i + 1}: $${money.perTurn[i]!.toFixed(5)}`).toBeLessThan(PER_TURN));
    expect(Math.abs(money.total - CHAPTER.total), `total $${money.total.toFixed(5)}`).toBeLessThan(PER_TURN);
    expect(result.usd, "the run's usd is the ledger's total").toBeCloseTo(money.total, 9);
    expect(Math.abs(money.output - CHAPTER.output), "output share").toBeLessThan(SHARE);
    expect(Math.abs(money.cacheWrite - CHAPTER.cacheWrite), "cache write share").toBeLessThan(SHARE);
    expect(Math.abs(money.cacheRead - CHAPTER.cacheRead), "cache read share").toBeLessThan(SHARE);
    expect(Math.abs(money.hitRate - CHAPTER.hitRate), "cache hit rate (prefix-only-cache bug)").toBeLessThan(SHARE);
    expect(money.verdict).toBe("HEALTHY");

    // The chapter's story: a miss, two tools in one turn, the big result offloaded and read back, an uncited claim sent back.
    expect(t.events[0]).toBe("cache.get");
    expect(t.lookups[0], "the nearest stored question is 0.91 away, under the 0.98 threshold").toMatchObject({ question: QUESTION, namespace: "acme", hit: false });
    expect(t.lookups[0]!.similarity.toFixed(2)).toBe("0.91");
    expect(result.steps.map((s) => [s.tool, s.batch])).toEqual([["search_docs", 0], ["get_account", 0], ["read_artifact", 1], ["read_artifact", 2]]);
    expect(t.events).toContain("offload:search_docs");
    expect(t.session.bodies().filter((b) => lastUser(b).includes(FEEDBACK_MARK))).toHaveLength(1);
    expect(goalPredicate(result.text)).toBe(true);
  });
});

describe.concurrent("the cache comes first and is written last", () => {
  test("a cache hit answers with no model call (cache-after-call bug)", async () => {
    const t = await setup("acme-triage", {}, { cached: { [`acme\u0000${QUESTION}`]: "Claim 1: Settings > API keys [src:docs/api-keys.md]" } });
    const result = await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    expect(result).toMatchObject({ ok: true, source: "cache", usd: 0, reason: "cache hit", steps: [] });
    expect(result.text).toContain("Settings > API keys");
    expect(t.session.calls(), "a hit makes no model call").toHaveLength(0);
  });

  test("only the answer that passed the goal predicate is stored (stores-before-predicate bug)", async () => {
    const t = await setup("acme-triage");
    const result = await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    expect(result.ok).toBe(true);
    expect(t.puts.map((p) => p.a), "one store: the cited answer").toEqual([result.text]);
    expect(t.puts[0]).toMatchObject({ q: QUESTION, ns: "acme" });
    expect(t.events.at(-1), "the store is the last thing the run does").toBe("cache.put");
  });

  test("an answer cacheable refuses is not stored (stores-uncacheable bug)", async () => {
    const t = await setup("acme-triage");
    const result = await run("how do I rotate my API key", "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    expect(result.ok).toBe(true);
    expect(t.puts, "a question about 'my' key belongs to one customer").toEqual([]);
  });
});

describe.concurrent("every model call is retried, recorded and charged", () => {
  test("a 429 is waited out through the retry part (no-retry bug)", async () => {
    const t = await setup("rate-limited", { faults: 2, retryAfter: 3 });
    const result = await run("say hello", "acme", { limitUsd: 2, maxSteps: 5 }, t.parts);
    expect(result.ok, result.reason).toBe(true);
    expect(t.sleeps.reduce((a, b) => a + b, 0), "two waits of retry-after").toBe(6);
  });

  test("every model call is in the ledger with the usage the provider served (unrecorded-call bug)", async () => {
    const t = await setup("acme-triage");
    const started = performance.now();
    await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    const wall = performance.now() - started;
    const served = t.session.calls().map((c) => c.usage);
    expect(t.rows.map((r) => r.label), "every call under the label agent").toEqual(served.map(() => "agent"));
    for (const r of t.rows) expect(r.ms, "a call's time lies within the run's").toSatisfy((ms: number) => ms >= 0 && ms <= wall);
    expect(served.length).toBeGreaterThanOrEqual(4);
    expect(t.rows.map((r) => r.usage.output_tokens)).toEqual(served.map((u) => u!.output_tokens));
    expect(t.rows.map((r) => r.usage.input_tokens)).toEqual(served.map((u) => u!.input_tokens));
  });

  test("the budget is charged for every call, answers included: usd is the ledger's total (budget-skips-answers bug)", async () => {
    const t = await setup("acme-triage");
    const result = await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    const ledgerTotal = t.rows.reduce((sum, r) => sum + r.usd, 0);
    expect(ledgerTotal).toBeGreaterThan(0);
    expect(result.usd).toBeCloseTo(ledgerTotal, 9);
    expect(Math.abs(result.usd - ledgerTotal)).toBeLessThan(DOLLARS);
  });

  test("an answer that passes is returned even when its call crossed the limit: it is paid for (budget-before-answer bug)", async () => {
    const t = await setup("acme-triage");
    const limit = 0.09; // the walk-through spends about $0.085 before its answering call and $0.0997 in all
    const result = await run(QUESTION, "acme", { limitUsd: limit, maxSteps: 10 }, t.parts);
    expect(result, result.reason).toMatchObject({ ok: true, source: "model", reason: "answered" });
    expect(goalPredicate(result.text)).toBe(true);
    expect(result.usd, "the answering call crossed the limit").toBeGreaterThan(limit);
    expect(result.usd).toBeCloseTo(t.rows.reduce((sum, r) => sum + r.usd, 0), 9);
  });
});

describe.concurrent("the stop reason decides", () => {
  test("max_tokens fails loudly: ok false, reason \"output truncated\" (truncation-succeeds bug)", async () => {
    const t = await setup("truncated");
    const result = await run("write the whole manual", "acme", { limitUsd: 2, maxSteps: 5 }, t.parts);
    expect(result).toMatchObject({ ok: false, reason: "output truncated" });
    expect(t.session.calls()).toHaveLength(1);
  });

  test("a model call that still fails after its retries is a partial with its message, never a throw (model-error-throws bug)", async () => {
    const t = await setup("bad-request");
    const result = await run("how do I rotate an API key", "acme", { limitUsd: 2, maxSteps: 5 }, t.parts);
    expect(result).toMatchObject({ ok: false, source: "model", usd: 0, steps: [] });
    expect(result.reason).toMatch(/^model call failed: .*max_tokens: 200000 > 128000/);
  });

  test("a refusal is a partial with its own reason, never an answer, after one call (refusal-answers bug)", async () => {
    const t = await setup("refusal");
    const result = await run("how do I rotate an API key", "acme", { limitUsd: 2, maxSteps: 5 }, t.parts);
    expect(result).toMatchObject({ ok: false, source: "model", reason: "the model declined", text: "" });
    expect(t.session.calls(), "a refusal is not argued with").toHaveLength(1);
    expect(t.puts, "nothing is cached").toEqual([]);
  });

  test("goalPredicate: every Claim line needs a [src: citation, and empty text is not done (trusts-end-turn bug)", async () => {
    expect(goalPredicate("Claim 1: the parcel left on Monday [src:/tmp/notes.txt]")).toBe(true);
    expect(goalPredicate("Claim 1: the parcel left on Monday [src:/tmp/notes.txt]\nClaim 2: it arrives Friday")).toBe(false);
    expect(goalPredicate("   ")).toBe(false);
    expect(goalPredicate("No claims here, just a greeting.")).toBe(true);
    const t = await setup("acme-triage");
    const result = await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    expect(result.ok).toBe(true);
    expect(result.text).not.toMatch(/^Claim[^\n[]*$/m); // no uncited claim reaches the customer
    expect(goalPredicate(result.text)).toBe(true);
  });

  test("a failed predicate sends its feedback back and the run goes on to a cited answer (predicate-returns bug)", async () => {
    const t = await setup("acme-triage");
    const result = await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    expect(result).toMatchObject({ ok: true, source: "model", reason: "answered" });
    const bodies = t.session.bodies();
    expect(bodies.some((b) => lastUser(b).includes(FEEDBACK_MARK)), "the feedback went to the model").toBe(true);
  });

  test('an answer in two text blocks is judged joined with "\\n": a claim opening the second block still needs its citation (blocks-run-together bug)', async () => {
    const t = await setup("acme-triage", { split: true });
    const result = await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    expect(result).toMatchObject({ ok: true, source: "model", reason: "answered" });
    const sentBack = t.session.bodies().filter((b) => lastUser(b).includes(FEEDBACK_MARK));
    expect(sentBack, "the draft's uncited Claim 2, opening its own block, is a line of its own and was sent back").toHaveLength(1);
    const blocks = (t.session.calls().at(-1)!.response as Anthropic.Message).content.flatMap((b) => (b.type === "text" ? [b.text] : []));
    expect(blocks, "the cited answer came in two text blocks").toHaveLength(2);
    expect(result.text, 'the answer is its text blocks joined with "\\n"').toBe(blocks.join("\n"));
  });
});

describe.concurrent("authorize runs before execution", () => {
  test("authorize is an allow-list: unknown tools are denied (deny-list bug)", async () => {
    expect(authorize("search_docs", {}, "acme")).toBe(true);
    expect(authorize("read_artifact", { path: "/tmp/x" }, "acme")).toBe(true);
    expect(authorize("rm_rf", { path: "/" }, "acme")).toBe(false);
    expect(authorize("delete_tenant", { confirmed: true }, "acme")).toBe(false);
    expect(authorize("get_order", {}, "acme"), "every read on the list").toBe(true);
    expect(authorize("update_account", { confirmed: true }, "acme"), "every write on the list").toBe(true);
  });

  test("a write needs a tenant and confirmed: true (unconfirmed-write bug)", async () => {
    expect(authorize("issue_refund", { order: "A-1001" }, "acme")).toBe(false);
    expect(authorize("issue_refund", { order: "A-1001", confirmed: "yes" }, "acme")).toBe(false);
    expect(authorize("issue_refund", { order: "A-1001", confirmed: true }, "")).toBe(false);
    expect(authorize("send_email", { confirmed: true }, "acme")).toBe(true);
  });

  test("denied calls never reach dispatch (authorize-after-execute bug)", async () => {
    const t = await setup("acme-actions");
    await run("refund order A-1001", "acme", { limitUsd: 2, maxSteps: 5 }, t.parts);
    expect(t.dispatched.map((d) => [d.name, d.input["confirmed"]])).toEqual([["issue_refund", true]]);
  });

  test("a denial goes back as an is_error result and the run goes on (denial-throws bug)", async () => {
    const t = await setup("acme-actions");
    const result = await run("refund order A-1001", "acme", { limitUsd: 2, maxSteps: 5 }, t.parts);
    expect(result.ok, result.reason).toBe(true);
    const results = toolResults(t.session.bodies()[1]!);
    expect(results.map((r) => r.is_error === true)).toEqual([true, true, false]);
    expect(results[0]!.content).toBe("Not permitted: rm_rf");
    expect(results[1]!.content).toBe("Not permitted: issue_refund");
    expect(result.steps.map((s) => s.tool), "a denied call is no step").toEqual(["issue_refund"]);
  });

  test("the tenant is the run's, injected at dispatch, and in no tool schema (tenant-from-model bug)", async () => {
    const t = await setup("acme-triage", { steal: true });
    await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    const account = t.dispatched.find((d) => d.name === "get_account");
    expect(account?.input, "the model asked for globex").toMatchObject({ tenant: "globex" });
    expect(account?.tenant, "but the dispatcher got the run's tenant").toBe("acme");
    for (const body of t.session.bodies()) expect(JSON.stringify(body.tools)).not.toContain("tenant");
  });
});

describe.concurrent("tools run together, are offloaded, then guarded", () => {
  test("a turn's tools run concurrently: 180 ms and 240 ms take 240 ms on the clock (sequential-tools bug)", async () => {
    const clock = virtualClock();
    const t = await setup("acme-triage", {}, { clock, delays: { search_docs: 180, get_account: 240 } });
    await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    const turn = t.dispatched.filter((d) => d.name === "search_docs" || d.name === "get_account");
    expect(turn).toHaveLength(2);
    const elapsed = Math.max(...turn.map((d) => d.end)) - Math.min(...turn.map((d) => d.start));
    console.log(`parallel turn: ${elapsed} ms on the virtual clock (sequential would be 420 ms)`);
    expect(elapsed).toBe(240);
  });

  test("a turn's results go back in the one user message after it (results-split bug)", async () => {
    const t = await setup("acme-triage");
    const result = await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    expect(result.ok, result.reason).toBe(true);
    const second = t.session.bodies()[1]!;
    expect(second.messages.map((m) => m.role), "goal, the two-call turn, its two results").toEqual(["user", "assistant", "user"]);
    expect(toolResults(second)).toHaveLength(2);
    for (const body of t.session.bodies()) expect(splitUserMessages(body)).toEqual([]);
  });

  test("a tool that throws goes back as an is_error result with its message, and the run goes on (tool-error-throws bug)", async () => {
    const t = await setup("acme-triage");
    const failing = { ...t.parts, dispatch: (name: string, input: Record<string, unknown>, tenant: string) => (name === "get_account" ? Promise.reject(new Error("account service down")) : t.parts.dispatch(name, input, tenant)) };
    const result = await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 10 }, failing);
    expect(result.ok, result.reason).toBe(true);
    expect(toolResults(t.session.bodies()[1]!).find((r) => r.content === "Error: account service down"), "the message, marked is_error").toMatchObject({ is_error: true });
    expect(result.steps.find((s) => s.tool === "get_account"), "a step that failed").toMatchObject({ isError: true });
  });

  test("the guard sees the offloaded pointer, never the 38,059-character result (guard-before-offload bug)", async () => {
    const t = await setup("acme-triage");
    const result = await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    expect(t.events.indexOf("offload:search_docs")).toBeGreaterThan(-1);
    expect(t.events.indexOf("offload:search_docs")).toBeLessThan(t.events.indexOf("guard:search_docs"));
    const sizes = t.guardStates.map((s) => String(s).length);
    console.log(`guard states: ${sizes.join(", ")} chars (raw search result: 38059)`);
    expect(sizes, "the raw result never reaches the guard").not.toContain(38_059);
    const pointer = result.steps.find((s) => s.tool === "search_docs")?.result ?? "";
    expect(pointer).toContain(t.root);
    expect(pointer.length).toBeLessThan(2_500);
    expect(t.guardStates[0], "the guard fingerprints what the model was sent").toBe(pointer);
    expect(toolResults(t.session.bodies()[1]!)[0]!.content).toBe(pointer);
  });

  test("the first guard trip is a nudge sent back as an is_error result; the run goes on (halts-on-first-trip bug)", async () => {
    const t = await setup("loop-repeat");
    const result = await run("why am I rate limited", "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    expect(result.ok, result.reason).toBe(true);
    const nudges = t.session.bodies().flatMap(toolResults).filter((r) => r.content === GUARD_NUDGE);
    expect(nudges.length).toBeGreaterThanOrEqual(1);
    expect(nudges.every((r) => r.is_error === true)).toBe(true);
  });

  test("the second guard trip halts with a partial whose reason is the guard's (never-halts bug)", async () => {
    const t = await setup("loop-repeat", { stubborn: true });
    const result = await run("why am I rate limited", "acme", { limitUsd: 2, maxSteps: 10 }, t.parts);
    expect(result).toMatchObject({ ok: false, reason: GUARD_NUDGE });
    expect(t.session.calls()).toHaveLength(4);
    expect(result.steps).toHaveLength(4);
  });
});

describe.concurrent("every other exit is a partial, and the prefix never changes", () => {
  test("the wrap-up note goes into the messages; the system prompt is identical on every call (note-in-system bug)", async () => {
    const t = await setup("runaway", {}, { repeat: 1_000 });
    await run("list the files", "acme", { limitUsd: 0.06, maxSteps: 25 }, t.parts);
    const bodies = t.session.bodies();
    expect(bodies.length).toBeGreaterThan(2);
    for (const body of bodies) expect(JSON.stringify(body.system), "the system prompt, the same on every call (note-in-system bug)").toBe(JSON.stringify(bodies[0]!.system));
    expect(bodies.some((b) => lastUser(b).includes(WRAP_UP)), "the note reached the model").toBe(true);
  });

  test("the wrap-up note joins the turn's tool results in one user message (wrap-up-own-message bug)", async () => {
    const t = await setup("runaway", {}, { repeat: 1_000 });
    await run("list the files", "acme", { limitUsd: 0.06, maxSteps: 25 }, t.parts);
    const bodies = t.session.bodies();
    const noted = bodies.find((b) => lastUser(b).includes(WRAP_UP));
    expect(noted, "the note reached the model").toBeDefined();
    expect(lastUser(noted!), "the note, in the message that carries the results (wrap-up-own-message bug)").toContain("tool_result");
    for (const body of bodies) expect(splitUserMessages(body), "user messages split in two (wrap-up-own-message bug)").toEqual([]);
  });

  test("the budget's stop returns a partial with its reason, steps and money (budget-throws bug)", async () => {
    const t = await setup("runaway", {}, { repeat: 1_000 });
    const threw = "run threw instead of returning a partial (budget-throws bug)";
    const result = await run("list the files", "acme", { limitUsd: 0.06, maxSteps: 25 }, t.parts).catch((error: unknown) => {
      throw new Error(`${threw}: ${error instanceof Error ? error.message : String(error)}`);
    });
    expect(result).toMatchObject({ ok: false, reason: "budget exhausted" });
    expect(result.usd).toBeGreaterThanOrEqual(0.06);
    expect(result.usd, "the money spent, every call charged").toBeCloseTo(t.rows.reduce((sum, r) => sum + r.usd, 0), 9);
    expect(t.session.calls().length).toBeLessThan(25);
  });

  test("the loop is bounded by maxSteps even when the guard never trips (unbounded bug)", async () => {
    const t = await setup("runaway", {}, { repeat: 1_000, guardSteps: 1_000 });
    const result = await run("list the files", "acme", { limitUsd: 2, maxSteps: 3 }, t.parts);
    expect(result).toMatchObject({ ok: false, reason: "step cap of 3 reached" });
    expect(t.session.calls()).toHaveLength(3);

    // Stopped at its uncited draft, the partial carries the last text the model wrote.
    const short = await setup("acme-triage");
    const draft = await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 4 }, short.parts);
    expect(draft).toMatchObject({ ok: false, reason: "step cap of 4 reached" });
    expect(draft.text).toContain("Claim 1: You rotate a key");
  });

  test("a reply with no text at all leaves the partial's text at the last text the model wrote (empty-reply-erases-text bug)", async () => {
    const t = await setup("acme-triage", { silent: true });
    const result = await run(QUESTION, "acme", { limitUsd: 2, maxSteps: 5 }, t.parts);
    expect(result).toMatchObject({ ok: false, reason: "step cap of 5 reached" });
    expect((t.session.calls().at(-1)!.response as Anthropic.Message).content, "the last reply said nothing").toEqual([]);
    expect(result.text, "the draft before it").toContain("Claim 1: You rotate a key");
  });
});
