/** Starting and closing a provider is cheap; the in-process API takes scenarios of its own and reports exchanges. */
import { describe, expect, it } from "vitest";
import { scenarioHelpers, startProvider, type Exchange } from "../../../checker/provider/index.js";
import { ask, clientFor, MODEL } from "./support.js";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Milliseconds `step` takes, the median of five tries. */
async function timed(step: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await step();
    times.push(performance.now() - started);
  }
  return median(times);
}

/**
 * The yardstick for "at once": one small request and its answer through the SDK, timed now. A
 * busy machine slows it as much as what is measured against it, so only the ratio is asserted.
 */
async function roundTripMs(): Promise<number> {
  const provider = await startProvider();
  try {
    const client = clientFor(provider);
    return await timed(() => client.messages.create(ask("how long does this take?")));
  } finally {
    await provider.close();
  }
}

describe("startProvider and close", () => {
  it("takes less time from start to closed than one request's round trip (well under a millisecond alone)", async () => {
    // This file's imports have already loaded the encoder, so the time below is the server's alone.
    const yardstick = await roundTripMs();
    const startToClosed = await timed(async () => (await startProvider()).close());
    expect(startToClosed / yardstick).toBeLessThan(1);
  });

  it("closes at once even with a client's keep-alive connection still open", async () => {
    const yardstick = await roundTripMs();
    const closings: number[] = [];
    for (let i = 0; i < 5; i++) {
      const provider = await startProvider();
      await clientFor(provider).messages.create(ask("keep the socket open"));
      const started = performance.now();
      await provider.close();
      closings.push(performance.now() - started);
    }
    // Waiting for the idle socket to time out would take seconds: hundreds of round trips.
    expect(median(closings) / yardstick).toBeLessThan(1);
  });

  it("picks a free port unless given one, and stops listening once closed", async () => {
    const a = await startProvider();
    const b = await startProvider();
    expect(a.port).toBeGreaterThan(0);
    expect(a.port).not.toBe(b.port);
    expect(a.origin).toBe(`http://127.0.0.1:${a.port}`);
    expect(a.url("weather", { faults: 2, note: "a b" })).toBe(`http://127.0.0.1:${a.port}/s/weather/faults=2/note=a%20b`);
    await Promise.all([a.close(), b.close()]);
    await expect(fetch(`${a.origin}/v1/messages`, { method: "POST", body: "{}" })).rejects.toThrow();
    await a.close();
  });
});

describe("in-process options", () => {
  it("serves a scenario of the caller's own, replacing a built-in of the same name", async () => {
    const { defineScenario, text } = scenarioHelpers;
    const own = await startProvider({
      scenarios: [defineScenario({ name: "echo", description: "shouts", reply: (ctx) => text(ctx.lastUserText.toUpperCase()) })],
    });
    try {
      const message = await clientFor(own).messages.create(ask("quiet please"));
      expect(message.content).toEqual([{ type: "text", text: "QUIET PLEASE" }]);
      expect(own.scenarios.filter((s) => s.name === "echo").map((s) => s.description)).toEqual(["shouts"]);
    } finally {
      await own.close();
    }
  });

  it("reports every exchange to onExchange as it finishes", async () => {
    const seen: Exchange[] = [];
    const own = await startProvider({ onExchange: (exchange) => seen.push(exchange) });
    try {
      await clientFor(own).messages.create(ask("one"));
      await clientFor(own).messages.countTokens({ model: MODEL, messages: [{ role: "user", content: "two" }] });
      expect(seen.map((e) => [e.seq, e.endpoint, e.outcome])).toEqual([
        [1, "messages", "message"],
        [2, "count_tokens", "count"],
      ]);
      expect(seen).toEqual(own.requests);
    } finally {
      await own.close();
    }
  });

  it("describes every built-in scenario in one line", async () => {
    const own = await startProvider();
    await own.close();
    for (const scenario of own.scenarios) expect(scenario.description).toMatch(/^[^\n]{10,}$/);
    expect(own.scenarios.map((s) => s.name)).toEqual(expect.arrayContaining(["echo", "weather", "capital-weather", "runaway", "rate-limited"]));
  });
});
