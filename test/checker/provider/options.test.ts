/** Path options are declared by each scenario: unknown ones and values out of range are a 400 naming them. */
import { describe, expect, it } from "vitest";
import { allScenarios, BUILT_IN_SCENARIOS } from "../../../checker/provider/index.js";
import { ROUTE_MESSAGES } from "../../../checker/provider/route.js";
import Anthropic from "@anthropic-ai/sdk";
import { ask, clientFor, expectErrorResponse, freshKey, post, useProvider } from "./support.js";

const provider = useProvider();
const body = JSON.stringify(ask("hi"));
const send = (path: string) => post(provider(), `${path}/v1/messages`, body);

describe("unknown options", () => {
  it("retryafter=7 (a typo of retryAfter) is a 400 naming it and listing what rate-limited takes", async () => {
    expectErrorResponse(
      await send("/s/rate-limited/retryafter=7"),
      400,
      'Unknown option "retryafter" for scenario "rate-limited". It takes: faults, retryAfter, retryAfterMs, shouldRetry; every scenario also takes latency, perToken and fuse.',
    );
  });

  it("a scenario that declares no options refuses any", async () => {
    expectErrorResponse(
      await send("/s/echo/flavour=plain"),
      400,
      'Unknown option "flavour" for scenario "echo". It takes none of its own; every scenario also takes latency, perToken and fuse.',
    );
  });

  it("an option name with odd characters, or given twice, is refused before the scenario is asked", async () => {
    expectErrorResponse(await send("/s/rate-limited/%0Afaults=1"), 400, ROUTE_MESSAGES.badOptionName("\nfaults"));
    expectErrorResponse(await send("/s/rate-limited/faults=1/faults=2"), 400, ROUTE_MESSAGES.repeatedOption("faults"));
  });
});

describe("values out of range", () => {
  it.each([
    ["/s/growing/grow=1e9", "growing", "grow", "an integer from 1 to 20000", "1e9"],
    ["/s/growing/turns=1.5", "growing", "turns", "an integer from 0 to 1000", "1.5"],
    ["/s/rate-limited/faults=-1", "rate-limited", "faults", "an integer from 0 to 1000", "-1"],
    ["/s/rate-limited/retryAfter=", "rate-limited", "retryAfter", "a number from 0 to 3600", ""],
    ["/s/rate-limited/retryAfter=%207", "rate-limited", "retryAfter", "a number from 0 to 3600", " 7"],
    ["/s/rate-limited/shouldRetry=maybe", "rate-limited", "shouldRetry", "true or false", "maybe"],
    ["/s/server-errors/status=429", "server-errors", "status", "an integer from 500 to 599", "429"],
    ["/s/loop-repeat/stubborn=yes", "loop-repeat", "stubborn", "true or false", "yes"],
  ])("%s is a 400 naming the option and what it takes", async (path, scenario, name, what, value) => {
    expectErrorResponse(await send(path), 400, `Option "${name}" of scenario "${scenario}" must be ${what}; got ${JSON.stringify(value)}.`);
  });

  it("a long value is quoted only in part", async () => {
    const got = await send(`/s/rate-limited/faults=${"9".repeat(5000)}`);
    expect(got.status).toBe(400);
    expect(got.text.length).toBeLessThan(600);
  });
});

describe("declarations", () => {
  it("every option a scenario's description mentions is declared, the engine's and each exercise's", async () => {
    const scenarios = await allScenarios();
    expect(scenarios.length).toBeGreaterThan(BUILT_IN_SCENARIOS.length);
    for (const scenario of scenarios) {
      const mentioned = [...scenario.description.matchAll(/\b([a-zA-Z]+)=/g)].map((m) => m[1]!);
      expect(Object.keys(scenario.options ?? {}), scenario.name).toEqual(expect.arrayContaining(mentioned));
    }
  });

  it("accepts the values the lessons use", async () => {
    for (const path of [
      "/s/rate-limited/faults=0/retryAfter=7",
      "/s/rate-limited/faults=0/retryAfterMs=5",
      "/s/server-errors/faults=0/status=503",
      "/s/growing/turns=5/grow=200",
      "/s/loop-repeat/stubborn=1",
    ]) {
      expect((await send(path)).status, path).toBe(200);
    }
    const scripted = await send("/s/bad-request/shouldRetry=true");
    expect([scripted.status, scripted.headers.get("x-should-retry")]).toEqual([400, "true"]);
  });
});

describe("a session's fuse", () => {
  it("fuse=3 answers a session's first three requests, then cuts the connection of every one after, recording none of them", async () => {
    const apiKey = freshKey();
    const client = clientFor(provider(), "echo", { apiKey, options: { fuse: 3 } });
    for (let i = 0; i < 3; i++) expect((await client.messages.create(ask(`hi ${i}`))).type).toBe("message");
    for (let i = 0; i < 2; i++) await expect(client.messages.create(ask("one more"))).rejects.toBeInstanceOf(Anthropic.APIConnectionError);
    expect(provider().requests.filter((r) => r.apiKey === apiKey)).toHaveLength(3);
    const other = clientFor(provider(), "echo", { options: { fuse: 3 } });
    expect((await other.messages.create(ask("hi"))).type, "another session's count is its own").toBe("message");
  });

  it("fuse=0 is a 400 naming it", async () => {
    expectErrorResponse(await send("/s/echo/fuse=0"), 400, 'Option "fuse" of scenario "echo" must be an integer from 1 to 100000; got "0".');
  });
});
