/** The SDK's own retry loop against scripted faults, and the per-fingerprint attempt counters behind them. */
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { startProvider } from "../../../checker/provider/index.js";
import { ask, clientFor, freshKey, rejection, useProvider } from "./support.js";

const provider = useProvider();

const exchangesOf = (apiKey: string) => provider().requests.filter((r) => r.apiKey === apiKey);

describe("the SDK's default retries", () => {
  it("get through 429-then-200, waiting what retry-after-ms says", async () => {
    const apiKey = freshKey();
    // No maxRetries: the SDK's default (2) is what is under test.
    const client = new Anthropic({ baseURL: provider().url("rate-limited", { faults: 1, retryAfterMs: 5 }), apiKey });
    const message = await client.messages.create(ask("retry me"));
    expect(message.content).toEqual([{ type: "text", text: "Done: retry me" }]);
    const exchanges = exchangesOf(apiKey);
    expect(exchanges.map((e) => [e.status, e.attempt])).toEqual([
      [429, 1],
      [200, 2],
    ]);
  });

  it("get through the default two faults with maxRetries 2", async () => {
    const apiKey = freshKey();
    const client = clientFor(provider(), "rate-limited", { apiKey, maxRetries: 2, options: { retryAfterMs: 5 } });
    await client.messages.create(ask("twice"));
    expect(exchangesOf(apiKey).map((e) => e.status)).toEqual([429, 429, 200]);
  });

  it("stop after one attempt when the fault says x-should-retry: false", async () => {
    const apiKey = freshKey();
    const client = clientFor(provider(), "rate-limited", { apiKey, maxRetries: 3, options: { retryAfterMs: 5, shouldRetry: false } });
    const err = await rejection(client.messages.create(ask("no retry")));
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect(err.headers.get("x-should-retry")).toBe("false");
    expect(exchangesOf(apiKey)).toHaveLength(1);
  });

  it("are told x-should-retry: true when a fault asks for it, even on a 400", async () => {
    const client = clientFor(provider(), "bad-request", { options: { shouldRetry: true } });
    const err = await rejection(client.messages.create(ask("again")));
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(err.headers.get("x-should-retry")).toBe("true");
  });
});

describe("fault attempt counters", () => {
  it("count attempts per request fingerprint: another body starts again at attempt 1", async () => {
    const client = clientFor(provider(), "overloaded", { options: { faults: 1 } });
    await rejection(client.messages.create(ask("first body")));
    expect((await client.messages.create(ask("first body"))).stop_reason).toBe("end_turn");
    expect(await rejection(client.messages.create(ask("second body")))).toBeInstanceOf(Anthropic.OverloadedError);
  });

  it.each([
    ["rate-limited", 2],
    ["overloaded", 3],
    ["server-errors", 2],
    ["drop-before-headers", 1],
    ["drop-mid-stream", 1],
  ] as const)("%s fails its first %i attempts by default, then answers", async (scenario, faults) => {
    const client = clientFor(provider(), scenario);
    for (let i = 0; i < faults; i++) expect(await rejection(client.messages.create(ask("defaults")))).toBeInstanceOf(Error);
    expect((await client.messages.create(ask("defaults"))).content).toEqual([{ type: "text", text: "Done: defaults" }]);
  });

  it("let drop-before-headers answer the next attempt of the same request", async () => {
    const apiKey = freshKey();
    const client = clientFor(provider(), "drop-before-headers", { apiKey });
    expect(await rejection(client.messages.create(ask("reconnect")))).toBeInstanceOf(Anthropic.APIConnectionError);
    expect((await client.messages.create(ask("reconnect"))).stop_reason).toBe("end_turn");
    expect(exchangesOf(apiKey).map((e) => [e.outcome, e.attempt])).toEqual([
      ["dropped", 1],
      ["message", 2],
    ]);
  });

  it("keep separate counts for separate API keys and scenario options", async () => {
    const options = { faults: 1, status: 500 };
    await rejection(clientFor(provider(), "server-errors", { apiKey: "counter-a", options }).messages.create(ask("same")));
    expect(await rejection(clientFor(provider(), "server-errors", { apiKey: "counter-b", options }).messages.create(ask("same")))).toBeInstanceOf(
      Anthropic.InternalServerError,
    );
    const other = { faults: 1, status: 503 };
    expect(await rejection(clientFor(provider(), "server-errors", { apiKey: "counter-a", options: other }).messages.create(ask("same")))).toBeInstanceOf(
      Anthropic.ServiceUnavailableError,
    );
  });

  it("are cleared by reset(), together with the recorded exchanges", async () => {
    const own = await startProvider();
    try {
      const client = clientFor(own, "rate-limited", { apiKey: "reset-key", options: { faults: 1, retryAfterMs: 5 } });
      await rejection(client.messages.create(ask("again")));
      await client.messages.create(ask("again"));
      own.reset();
      expect(own.requests).toEqual([]);
      expect(await rejection(client.messages.create(ask("again")))).toBeInstanceOf(Anthropic.RateLimitError);
      expect(own.requests.map((r) => r.attempt)).toEqual([1]);
    } finally {
      await own.close();
    }
  });
});
