import Anthropic, { type RateLimitError } from "@anthropic-ai/sdk";
import { describe, expect, test } from "vitest";
import { callWithRetry as learnersCallWithRetry } from "lab:impl";
import { fakeClock, seededRandom, useScenario, type FakeClock, type ScenarioSession } from "lab:test";

const MODEL = "claude-haiku-4-5";

/**
 * The learner's callWithRetry, handed its options frozen: a frozen object crosses to the
 * learner's realm as a copy, so reading maxAttempts or sleep on each attempt costs no round
 * trip to this side (a copy over there may still be changed; nothing here reads it back).
 */
const callWithRetry: typeof learnersCallWithRetry = (fn, options) => learnersCallWithRetry(fn, options && Object.freeze({ ...options }));

/** More attempts than any correct retry makes here (the most is 9). */
const FUSE = 30;


/** Statuses the request itself got wrong: sending the same request again cannot help. */
const FINAL_4XX = [401, 403, 404, 413, 422];

/**
 * `fn` for callWithRetry: one model call, made anew on every attempt. Each attempt notes the
 * fake clock's time, so a test can read the gaps between attempts however the wait was slept.
 * Past FUSE attempts it yields to the timer queue and throws a plain (non-retryable) Error, so
 * a retry loop with no end fails this test quickly instead of spinning.
 */
function ask(session: ScenarioSession, prompt: string, clock?: FakeClock) {
  const times: number[] = [];
  const fn = async () => {
    times.push(clock?.now() ?? Number.NaN);
    if (times.length > FUSE) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      throw new Error(`test fuse: more than ${FUSE} attempts`);
    }
    return session.client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: prompt }] });
  };
  return Object.assign(fn, { times });
}

/** Time slept between consecutive attempts, by the injected clock. */
const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

/** Settles a promise into a value or the error it failed with, so a test can inspect either. */
const settle = <T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> =>
  promise.then((value) => ({ value }), (error: unknown) => ({ error }));

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const stdev = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};
const seconds = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(", ");

/** What a retry may follow: a rate limit, an overloaded or broken server, or a connection that dropped (status 0). */
const retryable = (status: number) => status === 0 || status === 429 || status >= 500;

describe("02 retry", () => {
  test("live: whatever the endpoint answers, only a retryable failure is sent again: an empty conversation is refused once and rethrown (retries-400 bug)", async () => {
    const session = await useScenario("echo", { live: true });
    const clock = fakeClock();
    // No messages at all: refused with a 400, every time it is sent.
    const empty = () => session.client.messages.create({ model: MODEL, max_tokens: 64, messages: [] });

    const { error } = await settle(callWithRetry(empty, { sleep: clock.sleep, random: seededRandom(3) }));

    const statuses = session.calls().map((c) => c.status);
    expect(statuses.length, "attempts").toBeGreaterThan(0);
    expect(statuses.slice(0, -1).filter((status) => !retryable(status)), "attempts sent again after an answer no retry can change").toEqual([]);
    const last = statuses.at(-1)!;
    if (!retryable(last)) expect(error, "the endpoint's refusal, rethrown").toMatchObject({ status: last });
  });
  test("a 400 is sent once and rethrown at once, with no sleep (retries-400 bug)", async () => {
    const session = await useScenario("bad-request");
    const clock = fakeClock();

    const { error } = await settle(callWithRetry(ask(session, "Summarise the report."), { sleep: clock.sleep, random: seededRandom(2) }));

    expect(session.calls(), "requests the provider received").toHaveLength(1);
    expect(error, "the 400 itself, rethrown").toMatchObject({ status: 400, requestID: session.calls()[0]!.requestId });
    expect(clock.now(), "seconds slept").toBe(0);
  });

  test("twenty callers hitting 429 together wake at spread-out times (no-jitter bug)", async () => {
    const session = await useScenario("rate-limited", { options: { faults: 2 } });
    const clocks = Array.from({ length: 20 }, () => fakeClock());

    const replies = await Promise.all(
      clocks.map((clock, i) =>
        callWithRetry(ask(session, `worker ${i} reporting`, clock), { sleep: clock.sleep, random: seededRandom(i + 1) }),
      ),
    );

    replies.forEach((reply, i) => expect(reply.content).toEqual([expect.objectContaining({ text: `Done: worker ${i} reporting` })]));
    expect(session.calls(), "two 429s and a success for each caller").toHaveLength(60);
    // When each caller sent its last, successful request: the time it slept in all.
    const wakes = clocks.map((clock) => clock.now());
    expect(Math.min(...wakes), "every caller waited before retrying").toBeGreaterThan(0);
    // Without jitter every wake time is the same and the spread is 0. A jitter of 0.1 of the
    // wait (the least the chapter defends) spreads them by about 0.02 of the mean, 0.3 by 0.06.
    expect(stdev(wakes), `wake times ${seconds(wakes)}`).toBeGreaterThan(0.01 * mean(wakes));

    // The jitter grows with the wait: drawn at the top of its range it adds at least a tenth of
    // every wait (a fixed 0.3 s would spread the first wake and none after it).
    const slept = async (random: () => number) => {
      const failing = await useScenario("server-errors", { options: { faults: 6, status: 503 } });
      const clock = fakeClock();
      await callWithRetry(ask(failing, "Check the build.", clock), { maxAttempts: 7, sleep: clock.sleep, random });
      return clock.now();
    };
    const [least, most] = [await slept(() => 0), await slept(() => 0.999)];
    expect(most - least, `slept ${least.toFixed(3)} s at random() = 0, ${most.toFixed(3)} s near 1`).toBeGreaterThanOrEqual(0.09 * least);
  });

  test("401, 403, 404, 413 and 422 are each sent once and rethrown at once, like a 400 (retries-other-4xx bug)", async () => {
    for (const status of FINAL_4XX) {
      const session = await useScenario("client-errors", { options: { status } });
      const clock = fakeClock();

      const { error } = await settle(callWithRetry(ask(session, `Fetch record ${status}.`, clock), { sleep: clock.sleep, random: seededRandom(status) }));

      expect(session.calls(), `requests the provider received for a ${status}`).toHaveLength(1);
      expect(error, `the ${status} itself, rethrown`).toMatchObject({ status, requestID: session.calls()[0]!.requestId });
      expect(clock.now(), `seconds slept on a ${status}`).toBe(0);
    }
  });

  test("an error thrown by the caller's own code is rethrown at once, never retried (retries-own-errors bug)", async () => {
    const clock = fakeClock();
    let calls = 0;
    const bug = new TypeError("Cannot read properties of undefined (reading 'content')");

    const { error } = await settle(
      callWithRetry(
        async () => {
          calls++;
          throw bug;
        },
        { sleep: clock.sleep, random: seededRandom(4) },
      ),
    );

    expect(error, "the caller's own TypeError, unchanged").toBe(bug);
    expect(calls, "calls of fn").toBe(1);
    expect(clock.now(), "seconds slept").toBe(0);
  });

  test("retry-after: 7 makes the wait at least 7 s (at most 14 with jitter), not the 1 s backoff would pick (ignores-retry-after bug)", async () => {
    const session = await useScenario("rate-limited", { options: { faults: 1, retryAfter: 7 } });
    const clock = fakeClock();

    const fn = ask(session, "Plan the week.", clock);

    const reply = await callWithRetry(fn, { sleep: clock.sleep, random: seededRandom(3) });

    expect(reply.type).toBe("message");
    expect(fn.times, "two attempts").toHaveLength(2);
    // The server's 7 s is a floor; jitter of up to the whole wait may come on top.
    expect(clock.now(), "seconds slept before the retry").toBeGreaterThanOrEqual(7);
    expect(clock.now(), "seconds slept before the retry").toBeLessThanOrEqual(7 * 2);
  });

  test("a 429 without a retry-after header still backs off instead of retrying at once (missing-retry-after bug)", async () => {
    // retryAfterMs makes the provider send retry-after-ms: 1000 and no retry-after header. A
    // file that reads retry-after-ms waits 1 s; one that does not backs off from base, 1 s.
    const session = await useScenario("rate-limited", { options: { faults: 2, retryAfterMs: 1000 } });
    const clock = fakeClock();
    const fn = ask(session, "List the failing jobs.", clock);

    const reply = await callWithRetry(fn, { sleep: clock.sleep, random: seededRandom(10) });

    expect(reply.type).toBe("message");
    expect(session.calls().map((c) => c.status)).toEqual([429, 429, 200]);
    const probe = await settle(session.client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "probe" }] }));
    expect((probe.error as RateLimitError).headers.get("retry-after"), "the 429 carries no retry-after").toBeNull();
    const waits = gaps(fn.times);
    expect(waits.every((w) => w > 0), `seconds between attempts: ${seconds(waits)}`).toBe(true);
    expect(clock.now(), "seconds slept in all, at most (1 + 2) × 2").toBeLessThanOrEqual(6);
  });

  test("with cap 60, eight 503s in a row never wait more than the cap plus its jitter, 120 s (no-cap bug)", async () => {
    const session = await useScenario("server-errors", { options: { faults: 8, status: 503 } });
    const clock = fakeClock();

    // random() near 1 draws the largest jitter every time: the worst case the cap must hold.
    const fn = ask(session, "Check the build.", clock);
    const reply = await callWithRetry(fn, {
      maxAttempts: 9,
      base: 1,
      cap: 60,
      sleep: clock.sleep,
      random: () => 0.999,
    });

    expect(reply.type).toBe("message");
    expect(session.calls()).toHaveLength(9);
    const waits = gaps(fn.times);
    // Capped at 60 s, a wait plus a jitter of at most the whole wait stays within 120 s; uncapped,
    // the 8th wait alone is 128 s.
    expect(Math.max(...waits), `seconds between attempts: ${seconds(waits)}`).toBeLessThanOrEqual(60 * 2);
    expect(Math.max(...waits), "doubling from 1 s reaches the cap by the 7th wait").toBeGreaterThanOrEqual(60 * 0.9);
  });

  test("529 overloaded is retried until it succeeds (misses-529 bug)", async () => {
    const session = await useScenario("overloaded", { options: { faults: 3 } });
    const clock = fakeClock();

    const reply = await callWithRetry(ask(session, "Draft the release notes."), { sleep: clock.sleep, random: seededRandom(5) });

    expect(reply.content).toEqual([expect.objectContaining({ text: "Done: Draft the release notes." })]);
    expect(session.calls().map((c) => c.status)).toEqual([529, 529, 529, 200]);
    expect(clock.now(), "seconds slept between the attempts").toBeGreaterThan(0);
  });

  test("a connection dropped before any header is retried (connection-errors-fatal bug)", async () => {
    const session = await useScenario("drop-before-headers", { options: { faults: 2 } });
    const clock = fakeClock();

    const reply = await callWithRetry(ask(session, "Fetch the changelog."), { sleep: clock.sleep, random: seededRandom(6) });

    expect(reply.content).toEqual([expect.objectContaining({ text: "Done: Fetch the changelog." })]);
    expect(session.calls().map((c) => c.outcome)).toEqual(["dropped", "dropped", "message"]);
    expect(clock.now(), "seconds slept between the attempts").toBeGreaterThan(0);
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

  test("every retry calls fn again and sends a new request: two 503s and a success are three requests (retries-the-promise bug)", async () => {
    const session = await useScenario("server-errors", { options: { faults: 2, status: 503 } });
    const clock = fakeClock();
    const fn = ask(session, "Tag the release.", clock);

    const reply = await callWithRetry(fn, { sleep: clock.sleep, random: seededRandom(11) });

    expect(fn.times, "calls of fn").toHaveLength(3);
    expect(session.calls().map((c) => [c.attempt, c.status])).toEqual([
      [1, 503],
      [2, 503],
      [3, 200],
    ]);
    expect(reply.id, "the reply is the third request's").toBe((session.calls()[2]!.response as Anthropic.Message).id);
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

  test("the last attempt's error comes back at once: no wait after it (waits-after-last-attempt bug)", async () => {
    const session = await useScenario("server-errors", { options: { faults: 99 } });
    const clock = fakeClock();
    const fn = ask(session, "Rotate the logs.", clock);

    const { error } = await settle(callWithRetry(fn, { maxAttempts: 3, sleep: clock.sleep, random: seededRandom(12) }));

    expect(error).toMatchObject({ status: session.calls().at(-1)!.status });
    expect(fn.times, "three attempts").toHaveLength(3);
    expect(clock.now(), `the clock when the error came back, against the last attempt at ${fn.times.at(-1)} s`).toBe(fn.times.at(-1));
  });
});
