import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, test } from "vitest";
import { callWithRetry } from "lab:impl";
import { fakeClock, seededRandom, useScenario, type ScenarioSession } from "lab:test";

const MODEL = "claude-haiku-4-5";

/** More attempts than any correct retry makes here (the most is 9). */
const FUSE = 30;

/**
 * `fn` for callWithRetry: one model call, made anew on every attempt. Past FUSE attempts
 * it yields to the timer queue and throws a plain (non-retryable) Error, so a retry loop
 * with no end fails this test quickly instead of spinning.
 */
function ask(session: ScenarioSession, prompt: string) {
  let attempts = 0;
  return async () => {
    if (++attempts > FUSE) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      throw new Error(`test fuse: more than ${FUSE} attempts`);
    }
    return session.client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: prompt }] });
  };
}

/** Settles a promise into a value or the error it failed with, so a test can inspect either. */
const settle = <T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> =>
  promise.then((value) => ({ value }), (error: unknown) => ({ error }));

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const stdev = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};

describe("02 retry", () => {
  test("twenty callers hitting 429 together wake at spread-out times (no-jitter bug)", async () => {
    const session = await useScenario("rate-limited", { options: { faults: 2 } });
    const clocks = Array.from({ length: 20 }, () => fakeClock());

    const replies = await Promise.all(
      clocks.map((clock, i) =>
        callWithRetry(ask(session, `worker ${i} reporting`), { sleep: clock.sleep, random: seededRandom(i + 1) }),
      ),
    );

    replies.forEach((reply, i) => expect(reply.content).toEqual([expect.objectContaining({ text: `Done: worker ${i} reporting` })]));
    for (const clock of clocks) expect(clock.sleeps, "each caller waits once per 429").toHaveLength(2);
    const wakes = clocks.map((clock) => clock.now());
    const meanWait = mean(clocks.flatMap((clock) => clock.sleeps));
    // Uniform jitter over [0, 0.3·w] has a spread of about 0.087·w; without jitter it is 0.
    expect(stdev(wakes), `wake times ${wakes.map((w) => w.toFixed(3)).join(", ")}`).toBeGreaterThan(0.05 * meanWait);
  });

  test("a 400 is sent once and rethrown at once, with no sleep (retries-400 bug)", async () => {
    const session = await useScenario("bad-request");
    const clock = fakeClock();

    const { error } = await settle(callWithRetry(ask(session, "Summarise the report."), { sleep: clock.sleep, random: seededRandom(2) }));

    expect(session.calls(), "requests the provider received").toHaveLength(1);
    expect(error, "the 400 itself, rethrown").toMatchObject({ status: 400, requestID: session.calls()[0]!.requestId });
    expect(clock.sleeps).toEqual([]);
  });

  test("retry-after: 7 makes the wait about 7 s, not the 1 s backoff would pick (ignores-retry-after bug)", async () => {
    const session = await useScenario("rate-limited", { options: { faults: 1, retryAfter: 7 } });
    const clock = fakeClock();

    const reply = await callWithRetry(ask(session, "Plan the week."), { sleep: clock.sleep, random: seededRandom(3) });

    expect(reply.type).toBe("message");
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(7 * 0.7);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(7 * 1.3);
  });

  test("with cap 60, eight 503s in a row never sleep more than 78 s (no-cap bug)", async () => {
    const session = await useScenario("server-errors", { options: { faults: 8, status: 503 } });
    const clock = fakeClock();

    // random() near 1 draws the largest jitter every time: the worst case the cap must hold.
    const reply = await callWithRetry(ask(session, "Check the build."), {
      maxAttempts: 9,
      base: 1,
      cap: 60,
      sleep: clock.sleep,
      random: () => 0.999,
    });

    expect(reply.type).toBe("message");
    expect(session.calls()).toHaveLength(9);
    expect(clock.sleeps).toHaveLength(8);
    expect(Math.max(...clock.sleeps), `sleeps ${clock.sleeps.map((s) => s.toFixed(1)).join(", ")}`).toBeLessThanOrEqual(60 * 1.3);
    expect(Math.max(...clock.sleeps), "doubling from 1 s reaches the cap by the 7th wait").toBeGreaterThanOrEqual(60);
  });

  test("529 overloaded is retried until it succeeds (misses-529 bug)", async () => {
    const session = await useScenario("overloaded", { options: { faults: 3 } });
    const clock = fakeClock();

    const reply = await callWithRetry(ask(session, "Draft the release notes."), { sleep: clock.sleep, random: seededRandom(5) });

    expect(reply.content).toEqual([expect.objectContaining({ text: "Done: Draft the release notes." })]);
    expect(session.calls().map((c) => c.status)).toEqual([529, 529, 529, 200]);
    expect(clock.sleeps).toHaveLength(3);
  });

  test("a connection dropped before any header is retried (connection-errors-fatal bug)", async () => {
    const session = await useScenario("drop-before-headers", { options: { faults: 2 } });
    const clock = fakeClock();

    const reply = await callWithRetry(ask(session, "Fetch the changelog."), { sleep: clock.sleep, random: seededRandom(6) });

    expect(reply.content).toEqual([expect.objectContaining({ text: "Done: Fetch the changelog." })]);
    expect(session.calls().map((c) => c.outcome)).toEqual(["dropped", "dropped", "message"]);
    expect(clock.sleeps).toHaveLength(2);
  });

  test("after the last attempt the LAST error is thrown (swallows-last-error bug)", async () => {
    const session = await useScenario("server-errors", { options: { faults: 99 } });
    const clock = fakeClock();

    const { value, error } = await settle(
      callWithRetry(ask(session, "Rotate the logs."), { maxAttempts: 4, sleep: clock.sleep, random: seededRandom(7) }),
    );

    expect(value).toBeUndefined();
    // How many attempts there were is the maxAttempts test's business; here, only which error comes out.
    const calls = session.calls();
    expect(calls.length, "attempts made before giving up").toBeGreaterThan(1);
    expect(error, "the error of the final attempt, not an earlier one").toMatchObject({
      status: calls.at(-1)!.status,
      requestID: calls.at(-1)!.requestId,
    });
  });

  test("maxAttempts counts requests, the first included, each one real: 3 attempts are 3 requests, never a 4th (one-attempt-too-many bug)", async () => {
    // Two 429s, then success: the third and last allowed attempt gets through.
    const session = await useScenario("rate-limited", { options: { faults: 2 } });

    const reply = await callWithRetry(ask(session, "Count the open tickets."), {
      maxAttempts: 3,
      sleep: fakeClock().sleep,
      random: seededRandom(8),
    });

    const calls = session.calls();
    expect(calls.map((c) => [c.attempt, c.status])).toEqual([
      [1, 429],
      [2, 429],
      [3, 200],
    ]);
    expect(reply.id, "the reply is the one the third request got").toBe((calls[2]!.response as Anthropic.Message).id);

    // Three 429s: the same three requests are all there is. What gets thrown is the last-error test's business.
    const exhausted = await useScenario("rate-limited", { options: { faults: 3 } });
    await settle(callWithRetry(ask(exhausted, "Count the closed tickets."), { maxAttempts: 3, sleep: fakeClock().sleep, random: seededRandom(9) }));

    expect(exhausted.calls().map((c) => [c.attempt, c.status]), "requests with maxAttempts: 3").toEqual([
      [1, 429],
      [2, 429],
      [3, 429],
    ]);
  });
});
