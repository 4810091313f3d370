import { afterAll, afterEach, beforeAll, expect, test, vi } from "vitest";
import { startProvider, type Provider } from "../../../../checker/provider/index.js";
import { useScenario } from "../../../../checker/testing/index.js";
import { LIVE_ENV } from "../../../../checker/testing/live/live-env.js";
import { LIVE_MESSAGES } from "../../../../checker/testing/live/live-session.js";

// useScenario as a hidden test meets it in a live worker. The provider plays the lab's gate here
// (the URL a live worker is given), so what reached it can be read.

let provider: Provider;
beforeAll(async () => {
  provider = await startProvider();
});
afterAll(() => provider.close());
afterEach(() => {
  vi.unstubAllEnvs();
});

test("live: in a live run a live session goes to the endpoint through the worker's relay, which records what it sent, and there is no provider to read", async () => {
  vi.stubEnv(LIVE_ENV, provider.url("echo"));

  const session = await useScenario("weather", { live: true });
  const reply = await session.client.messages.create({ model: "claude-opus-5", max_tokens: 64, messages: [{ role: "user", content: "hello" }] });

  // The echo at the URL answered, not the weather scenario the test named for scripted runs.
  expect(reply.content).toEqual([{ type: "text", text: "You said: hello" }]);
  expect(session.url.startsWith("http://127.0.0.1:")).toBe(true);
  expect(session.url).not.toBe(provider.url("echo"));
  expect(session.calls().map((c) => [c.status, c.apiKey, (c.response as { content?: unknown }).content])).toEqual([[200, session.apiKey, reply.content]]);
  expect(provider.requests.filter((r) => r.apiKey === session.apiKey)).toHaveLength(1);
  expect(() => session.provider).toThrow(LIVE_MESSAGES.noProvider);
});

test("live: outside a live run a live session is the named scenario's, on the scripted provider", async () => {
  const session = await useScenario("echo", { live: true, provider });

  await session.client.messages.create({ model: "claude-opus-5", max_tokens: 64, messages: [{ role: "user", content: "hello" }] });

  expect(session.url).toBe(provider.url("echo"));
  expect(session.provider).toBe(provider);
  expect(session.calls()).toHaveLength(1);
});

test("a session marked live in a test whose name does not say so is refused", async () => {
  await expect(useScenario("echo", { live: true, provider })).rejects.toThrow(
    '"a session marked live in a test whose name does not say so is refused" opens a live session, so its name must start with "live: ": the self-check judges live checks among themselves.',
  );
});
