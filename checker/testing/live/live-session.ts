/**
 * A hidden test's session in a live run (`lab check N --live`). The lab hands its workers the
 * URL of its gate in LAB_LIVE_URL (see gate.ts); each session then talks to the real endpoint
 * through a relay of this worker's own, which records what crossed, so `calls()` and `bodies()`
 * read the same as against the scripted provider. A test that only the scripted provider can
 * stage (a fault on cue, an exact usage, a scripted answer) is skipped instead, with a sentence
 * saying why; a test marked `live: true` holds whatever the model says, and runs.
 */
import { type RunnerTestCase, TestRunner } from "vitest";
import { enteredTask } from "../../realm/test-context.js";
import { isLiveCheck, LIVE_CHECK_PREFIX } from "../../model/exercises.js";
import type { Provider } from "../../provider/index.js";
import type { ScenarioSession } from "../scenario-session.js";
import { startRelay, type Relay } from "./relay.js";

/** What each scripted scenario does that a real model cannot be made to do on cue. */
const STAGES: Record<string, string> = {
  "rate-limited": "answer 429 on cue, with a chosen retry-after",
  overloaded: "answer 529 overloaded on cue",
  "server-errors": "answer 500s and 503s on cue",
  "client-errors": "refuse a request with a chosen 4xx",
  "bad-request": "refuse a request with a 400 on cue",
  "drop-before-headers": "drop the connection before answering",
  "drop-mid-stream": "cut a stream off halfway",
  walkthrough: "charge the exact token counts the test prices",
  "exact-reply": "answer with an exact number of tokens",
  truncated: "cut a reply off at max_tokens",
  refusal: "refuse with empty content",
  runaway: "play a model that never stops asking for tools",
  growing: "grow the transcript by a set amount every turn",
  injection: "play a model that obeys an instruction planted in a document",
  stubborn: "play a model that ignores every nudge",
};

export const LIVE_MESSAGES = {
  staged: (scenario: string) =>
    `Skipped live: only the scripted provider can ${STAGES[scenario] ?? `follow the "${scenario}" script word for word`}, which this test checks.`,
  outsideTest: (scenario: string) => `useScenario("${scenario}") was called outside a test in a live run, where it cannot be skipped: call it inside the test.`,
  noProvider: "A live session talks to a real endpoint: there is no scripted provider behind it to read.",
  unnamed: (name: string) =>
    `"${name}" opens a live session, so its name must start with "${LIVE_CHECK_PREFIX}": the self-check judges live checks among themselves.`,
} as const;

/** The test whose work is running now: the one entered in this flow when tests run side by side. */
const runningTest = (): RunnerTestCase | undefined => enteredTask<RunnerTestCase>() ?? TestRunner.getCurrentTest();

/**
 * Skips the test that is running now, with the reason; never returns. Called synchronously from
 * useScenario, so the test is the one that asked (a session opened in a hook cannot be skipped).
 */
export function skipStaged(scenario: string): never {
  const test = runningTest();
  if (!test) throw new Error(LIVE_MESSAGES.outsideTest(scenario));
  test.context.skip(LIVE_MESSAGES.staged(scenario));
  throw new Error("unreachable: skip() throws");
}

/** Throws unless the test running now is named as a live check. */
export function expectLiveCheckName(): void {
  const name = runningTest()?.name;
  if (name !== undefined && !isLiveCheck(name)) throw new Error(LIVE_MESSAGES.unnamed(name));
}

let relay: Promise<Relay> | null = null;

/** This worker's relay to the gate (started on first use): it records every exchange. */
function liveRelay(url: string): Promise<Relay> {
  relay ??= startRelay({ upstream: url });
  return relay;
}

/** The parts of a ScenarioSession that differ live: the base URL and what this key sent. */
export async function liveParts(url: string, apiKey: string): Promise<Pick<ScenarioSession, "url" | "requests" | "provider">> {
  const r = await liveRelay(url);
  return {
    url: r.url,
    requests: () => r.requests.filter((exchange) => exchange.apiKey === apiKey),
    get provider(): Provider {
      throw new Error(LIVE_MESSAGES.noProvider);
    },
  };
}
