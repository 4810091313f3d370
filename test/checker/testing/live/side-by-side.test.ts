/**
 * useScenario in a live run when a file's tests run side by side (describe.concurrent): a staged
 * session skips the test that opened it, not the test vitest started last. Each test runs in the
 * thread's test context, as lab:impl runs a hidden test's (checker/realm/lab-impl.ts).
 */
import { afterAll, aroundEach, beforeAll, describe, expect, test, vi } from "vitest";
import { startProvider, type Provider } from "../../../../checker/provider/index.js";
import { testContext } from "../../../../checker/realm/test-context.js";
import { useScenario } from "../../../../checker/testing/index.js";
import { LIVE_ENV } from "../../../../checker/testing/live/live-env.js";
import { LIVE_MESSAGES } from "../../../../checker/testing/live/live-session.js";

let provider: Provider;
beforeAll(async () => {
  provider = await startProvider();
  vi.stubEnv(LIVE_ENV, provider.url("echo"));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await provider.close();
});

let entered = 0;
let secondStarted!: () => void;
const bothStarted = new Promise<void>((resolve) => (secondStarted = resolve));
let firstAsked!: () => void;
const stagedAsked = new Promise<void>((resolve) => (firstAsked = resolve));
let liveRanOn = false;

describe.concurrent("side by side", () => {
  aroundEach((runTest, { task }) => testContext.runTest(++entered, task, runTest));

  test("a staged scenario, asked for once a later test has started", async () => {
    await bothStarted;
    try {
      await useScenario("rate-limited", { options: { faults: 1 } });
    } finally {
      firstAsked();
    }
  });

  test("live: a live check started after it, which runs on", async () => {
    secondStarted();
    await stagedAsked;
    const session = await useScenario("weather", { live: true });
    await session.client.messages.create({ model: "claude-opus-5", max_tokens: 64, messages: [{ role: "user", content: "hello" }] });
    liveRanOn = true;
  });
});

test("the staged test was skipped with its sentence, and the live check ran to its end", ({ task }) => {
  const group = task.file.tasks.find((t) => t.name === "side by side");
  const [first, second] = group?.type === "suite" ? group.tasks : [];
  expect([first!.result?.state, (first!.result as { note?: string } | undefined)?.note]).toEqual(["skip", LIVE_MESSAGES.staged("rate-limited")]);
  expect([second!.result?.state, liveRanOn]).toEqual(["pass", true]);
});
