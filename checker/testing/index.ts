/**
 * What hidden tests import as "lab:test", the kit several exercises share: the worker's
 * scripted provider, an SDK client bound to one scenario, clocks, prices, sized texts and
 * the staged embedding model. Each session gets its own API key, so its recorded requests,
 * fault counters and prompt cache are its own even when tests run side by side. What one
 * exercise alone needs lives in its folder, support/, imported as "lab:support".
 */
import Anthropic, { type ClientOptions } from "#anthropic-sdk";
import { randomUUID } from "node:crypto";
import { startProvider, type Provider, type ProviderOptions } from "../provider/index.js";
import type { ScenarioSession } from "./scenario-session.js";
import { liveUrl } from "./live/live-env.js";
import { expectLiveCheckName, liveParts, skipStaged } from "./live/live-session.js";

export type { ScenarioSession };

export { startProvider };

export { WEATHER_CITIES, type Exchange, type Provider } from "../provider/index.js";
export { countText, padToTokens, tokenText } from "../provider/scenarios/sized-text.js";

let shared: Promise<Provider> | null = null;

/** The provider this worker shares between tests (started on first use). */
export function provider(): Promise<Provider> {
  shared ??= startProvider();
  return shared;
}

/** A provider of the test's own, for tests that need an injected clock or other options. Close it when done. */
export function privateProvider(options: ProviderOptions): Promise<Provider> {
  return startProvider(options);
}

export interface SessionOptions {
  /** Options in the scenario URL, e.g. { faults: 3, retryAfter: 7 }. */
  options?: Record<string, string | number | boolean>;
  client?: Partial<ClientOptions>;
  /** Use this provider instead of the worker's shared one. */
  provider?: Provider;
  /**
   * At most this many requests: past it the session's requests fail with a connection error,
   * so a loop that never stops ends quickly. On the scripted provider it is the provider's own
   * `fuse` (nothing crosses to the test per call); live, the client's fetch counts.
   */
  fuse?: number;
  /**
   * The test's assertions hold whatever the model says (a live check): in a live run
   * (`lab check N --live`) it runs against the real endpoint instead of the scenario. Without
   * it a live run skips the test, saying what the scenario stages that a real model cannot.
   */
  live?: boolean;
}

type SessionParts = Pick<ScenarioSession, "url" | "requests" | "provider">;

async function scriptedParts(name: string, apiKey: string, opts: SessionOptions): Promise<SessionParts> {
  const p = opts.provider ?? (await provider());
  const options = opts.fuse === undefined ? (opts.options ?? {}) : { ...opts.options, fuse: opts.fuse };
  return { url: p.url(name, options), provider: p, requests: () => p.requests.filter((r) => r.apiKey === apiKey) };
}

/** A fetch that fails past `limit` requests, as the provider's fuse does. */
function fusedFetch(limit: number, inner: typeof fetch = fetch): typeof fetch {
  let made = 0;
  return (input, init) => (++made > limit ? Promise.reject(new TypeError(`fetch failed: the session's fuse of ${limit} requests blew`)) : inner(input, init));
}

/** Opens a session on a named scenario of the scripted provider, or on the real endpoint in a live run. */
export async function useScenario(name: string, opts: SessionOptions = {}): Promise<ScenarioSession> {
  const live = liveUrl();
  if (opts.live) expectLiveCheckName();
  else if (live) skipStaged(name);
  const apiKey = `lab-${randomUUID()}`;
  const parts = live ? await liveParts(live, apiKey) : await scriptedParts(name, apiKey, opts);
  const clientOptions: Partial<ClientOptions> = { ...opts.client };
  if (live && opts.fuse !== undefined) clientOptions.fetch = fusedFetch(opts.fuse, opts.client?.fetch);
  const client = new Anthropic({ baseURL: parts.url, apiKey, maxRetries: 0, ...clientOptions });
  const calls = () => parts.requests().filter((r) => r.endpoint === "messages");
  return {
    client,
    url: parts.url,
    apiKey,
    get provider() {
      return parts.provider;
    },
    requests: parts.requests,
    calls,
    bodies: () => calls().map((r) => r.body as Anthropic.MessageCreateParams),
  };
}

export interface FakeClock {
  /** Current fake time in seconds. */
  now(): number;
  /** Resolves at once and moves the clock forward; every wait is recorded. */
  sleep(seconds: number): Promise<void>;
  /** Every duration passed to `sleep`, in order. */
  readonly sleeps: number[];
  advance(seconds: number): void;
}

/** A clock that never really waits: `sleep` records the duration and advances time. */
export function fakeClock(start = 0): FakeClock {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    // Async, as a real sleep is: the learner's realm calls it without waiting for the test's side.
    async sleep(seconds: number) {
      sleeps.push(seconds);
      t += seconds;
    },
    sleeps,
    advance(seconds: number) {
      t += seconds;
    },
  };
}

/** A deterministic stand-in for Math.random (mulberry32). */
export function seededRandom(seed = 1): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export {
  CLOSEST_OF_TWO,
  DANGEROUS_PAIRS,
  DIMENSIONS,
  NEAR_MISSES,
  PARAPHRASES,
  stagedEmbedder,
  stagedVector,
  type LabelledPair,
  type StagedEmbedder,
} from "./staged-embeddings.js";
export { CACHE_READ, CACHE_WRITE, PRICES, usdOf, type TokenCounts } from "./pricing.js";
export { exerciseFixtures } from "./fixtures.js";
/**
 * Resolves once the learner's code has run everything the test has set off in it so far (it runs
 * in a realm of its own, checker/realm/): a test that presses Stop inside a callback waits for
 * the learner's code to hear it before the callback goes on, as it would have heard it at once
 * had they shared a realm.
 */
export { realmsSettled as learnerCaughtUp } from "../realm/host.js";
