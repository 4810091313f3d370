/**
 * Exercise 2's tier-2 reference, run: the model node's RetryPolicy against the scripted
 * provider's faults, judged on the attempts that reached the provider and the waits between.
 */
import { HumanMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, test, vi } from "vitest";
import { buildGraph } from "../../../exercises/02-retry/reference/tier2.js";
import { langchainSession } from "./langchain-session.js";
import { recordRetryWaits } from "./retry-waits.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const ask = (question: string) => buildGraph().invoke({ messages: [new HumanMessage(question)] });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: unknown) => err as { status?: number },
  );

describe("exercise 2, tier 2: retry as a node policy", () => {
  test("the retry policy rides out rate-limited: two 429s, then the answer, after waits that double", async () => {
    const session = await langchainSession("rate-limited", { faults: 2 });
    const waits = recordRetryWaits();

    const final = await ask("Summarise the incident report.");

    expect(final.messages.at(-1)?.text).toBe("Done: Summarise the incident report.");
    expect(
      session.calls().map((c) => c.status),
      "HTTP status of each attempt",
    ).toEqual([429, 429, 200]);
    expect(waits, "one wait before each retry").toHaveLength(2);
    // 1 s, then 2 s, each plus LangGraph's jitter of up to one second.
    expect(waits[0]).toBeGreaterThanOrEqual(1_000);
    expect(waits[0]).toBeLessThan(2_000);
    expect(waits[1]).toBeGreaterThanOrEqual(2_000);
    expect(waits[1]).toBeLessThan(3_000);
  });

  test("a 400 fails at once: one attempt, no wait", async () => {
    const session = await langchainSession("bad-request");
    const waits = recordRetryWaits();

    const error = await failure(ask("Summarise the incident report."));

    expect(error?.status).toBe(400);
    expect(session.calls(), "attempts").toHaveLength(1);
    expect(waits).toEqual([]);
  });

  test("a server that keeps failing is given up on after 5 attempts, the first included", async () => {
    const session = await langchainSession("server-errors", { faults: 99 });
    const waits = recordRetryWaits();

    const error = await failure(ask("Summarise the incident report."));

    expect(error?.status).toBeGreaterThanOrEqual(500);
    expect(session.calls(), "attempts").toHaveLength(5);
    expect(waits, "waits between the attempts").toHaveLength(4);
    expect(Math.max(...waits)).toBeLessThan(60_000 + 1_000);
  });
});
