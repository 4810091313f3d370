/**
 * The scenarios behind exercises 6 and 7: `support-desk` uses only the tools a request
 * offers and retries a failing lookup up to its limit; `exact-reply` and `padToTokens`
 * give texts of an exact size in the provider's own count.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { padToTokens } from "../../../checker/provider/scenarios/index.js";
import { SUPPORT_RETRY_LIMIT } from "../../../exercises/06-eval-harness/scenarios.js";
import { drive, type Tools } from "./driver.js";
import { segmentTokens } from "./render.js";
import { ask, clientFor, useProvider } from "./support.js";

const provider = useProvider();

const definition = (name: string): Anthropic.Tool => ({ name, description: `The ${name} tool.`, input_schema: { type: "object" } });
const ALL: Tools = {
  lookup_order: (input) => `Order ${String(input["order_id"])}: shipped, arriving Thursday.`,
  refund_order: () => "Refund issued.",
  search_docs: () => "Reset your password under Settings.",
  escalate: () => "Ticket T-1 opened.",
  delete_account: () => "Account deleted.",
};

/** Drives support-desk offering exactly `offered` (by name), with their implementations from ALL or `override`. */
function desk(goal: string, offered: string[], override: Tools = {}, maxCalls = 40) {
  const tools = Object.fromEntries(offered.map((name) => [name, override[name] ?? ALL[name]!]));
  return drive(clientFor(provider(), "support-desk"), goal, { tools, maxCalls, request: { tools: offered.map(definition) } });
}

const names = (run: Awaited<ReturnType<typeof desk>>) => run.replies.flatMap((r) => r.content.flatMap((b) => (b.type === "tool_use" ? [b.name] : [])));
const answer = (run: Awaited<ReturnType<typeof desk>>) => (run.final.content[0] as Anthropic.TextBlock).text;

describe("support-desk", () => {
  it("looks an order up and answers with the first line of what came back", async () => {
    const run = await desk("Where is order 1042?", ["lookup_order", "search_docs"]);
    expect(names(run)).toEqual(["lookup_order"]);
    expect(answer(run)).toBe("Order 1042: shipped, arriving Thursday.");
  });

  it("refunds only after looking the order up, and says it cannot when either tool is missing", async () => {
    expect(names(await desk("Refund order 2051 please", ["lookup_order", "refund_order"]))).toEqual(["lookup_order", "refund_order"]);
    const without = await desk("Refund order 2051 please", ["refund_order"]);
    expect(names(without)).toEqual([]);
    expect(answer(without)).toMatch(/cannot/);
  });

  it("deletes an account outright when offered delete_account, and escalates otherwise", async () => {
    expect(names(await desk("Please close my account.", ["escalate", "delete_account"]))).toEqual(["delete_account"]);
    expect(names(await desk("Please close my account.", ["escalate"]))).toEqual(["escalate"]);
  });

  it(`retries a lookup that says "try again" up to ${SUPPORT_RETRY_LIMIT} times, then gives up in words`, async () => {
    const failing: Tools = { lookup_order: () => ({ text: "Error: service unavailable. Try again.", isError: true }) };
    const run = await desk("Where is order 7777?", ["lookup_order"], failing);
    expect(names(run)).toHaveLength(SUPPORT_RETRY_LIMIT);
    expect(run.final.stop_reason).toBe("end_turn");
    expect(answer(run)).toContain(`after ${SUPPORT_RETRY_LIMIT} lookups`);
  });
});

describe("exact sizes", () => {
  it("padToTokens gives exactly the size asked, as the provider counts a segment", () => {
    for (const n of [12, 210, 1_100, 6_100]) expect(segmentTokens(padToTokens("The house rules follow.\n", n))).toBe(n);
  });

  it("padToTokens refuses a size smaller than its head, naming both", () => {
    expect(() => padToTokens("A head of a good many tokens, more than three.", 3)).toThrow(/cannot be padded to exactly 3 tokens/);
  });

  it("exact-reply answers in exactly out tokens, 400 by default", async () => {
    const byDefault = await clientFor(provider(), "exact-reply").messages.create(ask("Anything?"));
    const short = await clientFor(provider(), "exact-reply", { options: { out: 37 } }).messages.create(ask("Anything?"));
    expect(byDefault.usage.output_tokens).toBe(400);
    expect(short.usage.output_tokens).toBe(37);
  });
});
