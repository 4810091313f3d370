/** The scripted provider: a loopback server that speaks the Anthropic Messages API. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { answerClientError, MAX_BODY_BYTES } from "./http-io.js";
import { MODELS, type ModelSpec } from "./models.js";
import { DEFAULT_RECORD_LIMITS, type RecordLimits } from "./records.js";
import { allScenarios } from "./scenarios/index.js";
import type { Scenario } from "./scenarios/types.js";
import type { Cassette } from "./cassette.js";
import { realSleep } from "./pacing.js";
import { DEFAULT_MAX_CONTEXT_TOKENS, ProviderHandler, type Exchange } from "./server.js";

export interface ProviderOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Clock for cache expiry, in milliseconds. */
  now?: () => number;
  /** Time to the first token of every answer, in ms (a path's latency=MS overrides it). */
  latencyMs?: number;
  /** Time between output tokens, in ms: a stream is paced by it, a whole reply waits for all of them (a path's perToken=MS overrides it). */
  perTokenMs?: number;
  /** How the provider waits for latency and pacing; tests pass one that need not wait for real. */
  sleep?: (ms: number) => Promise<void>;
  /** Answer from this cassette (recorded by `startRecorder`) instead of the scenarios. */
  cassette?: Cassette;
  /** Minimum cacheable prefix in tokens: one number, or per model (with an optional "default"). */
  cacheMinTokens?: number | Record<string, number>;
  maxContextTokens?: number;
  maxBodyBytes?: number;
  /** Extra scenarios; one with a built-in's name replaces it. */
  scenarios?: Scenario[];
  /** Extra models the provider serves (by name, with their output ceiling); one with a built-in's name replaces it. */
  models?: Record<string, ModelSpec>;
  /** How many recorded exchanges (and how many of their bytes) `requests` keeps; the oldest go first. */
  keep?: Partial<RecordLimits>;
  /** A client must send its whole head within this many ms (default 10 s), and its whole request within `requestTimeoutMs` (30 s). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  onExchange?: (exchange: Exchange) => void;
  /** Told of every throw the provider did not expect; the client still gets a 500 api_error. */
  onInternalError?: (err: unknown) => void;
}

export interface Provider {
  readonly port: number;
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** Base URL for an SDK client: http://127.0.0.1:PORT/s/NAME[/key=value…] (the OpenAI SDK's is this plus /v1) */
  url(scenario?: string, options?: Record<string, string | number | boolean>): string;
  /** The exchanges so far, in arrival order (the newest, within the `keep` window). */
  readonly requests: readonly Exchange[];
  /** How many exchanges fell out of the window since the last reset. */
  readonly forgotten: number;
  readonly scenarios: readonly Scenario[];
  /** Forgets recorded exchanges, fault attempt counters and the prompt cache. */
  reset(): void;
  /** Ends the keep-alive connections no request is using (a worker kept for another file starts from none). */
  closeIdleConnections(): void;
  close(): Promise<void>;
}

/** By default an unexpected throw is one line on stderr, beside the 500 the client got. */
function logInternalError(err: unknown): void {
  process.stderr.write(`scripted provider: answered 500 to an error it did not expect: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
}

/** A replay serves every model its recordings name, with no output ceiling of its own. */
function cassetteModels(cassette: Cassette | undefined): Record<string, ModelSpec> {
  return Object.fromEntries((cassette?.models() ?? []).map((name) => [name, { maxOutputTokens: Number.MAX_SAFE_INTEGER }]));
}

export async function startProvider(options: ProviderOptions = {}): Promise<Provider> {
  const handler = new ProviderHandler({
    now: options.now ?? Date.now,
    pacing: { latencyMs: options.latencyMs ?? 0, perTokenMs: options.perTokenMs ?? 0 },
    sleep: options.sleep ?? realSleep,
    ...(options.cassette ? { cassette: options.cassette } : {}),
    cacheMinTokens: options.cacheMinTokens ?? 1024,
    maxContextTokens: options.maxContextTokens ?? DEFAULT_MAX_CONTEXT_TOKENS,
    maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    scenarios: [...(await allScenarios()), ...(options.scenarios ?? [])],
    models: { ...MODELS, ...cassetteModels(options.cassette), ...options.models },
    keep: { ...DEFAULT_RECORD_LIMITS, ...options.keep },
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
    onInternalError: options.onInternalError ?? logInternalError,
  });
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(headersTimeout, options.requestTimeoutMs ?? 30_000);
  const server = createServer(
    // Node checks both timeouts only this often, so a short one needs a short interval.
    { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.max(10, Math.min(1_000, headersTimeout / 4)) },
    (req, res) => void handler.handle(req, res),
  );
  server.keepAliveTimeout = 5_000;
  server.on("clientError", answerClientError);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  let closed: Promise<void> | null = null;

  return {
    port,
    origin,
    url(scenario = "echo", opts = {}) {
      const extra = Object.entries(opts).map(([k, v]) => `/${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
      return `${origin}/s/${encodeURIComponent(scenario)}${extra.join("")}`;
    },
    get requests() {
      return handler.records;
    },
    get forgotten() {
      return handler.forgotten;
    },
    get scenarios() {
      return handler.scenarioList();
    },
    reset: () => handler.reset(),
    closeIdleConnections: () => server.closeIdleConnections(),
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

export type { Exchange } from "./server.js";
export type { Scenario, ScenarioContext, ScenarioReply } from "./scenarios/types.js";
export { allScenarios, BUILT_IN_SCENARIOS, WEATHER_CITIES } from "./scenarios/index.js";
export * as scenarioHelpers from "./scenarios/helpers.js";
export { ApiError } from "./errors.js";
export { Cassette, CassetteError, CASSETTE_MESSAGES, type RecordedExchange } from "./cassette.js";
export { CHAT_MESSAGES } from "./chat/request.js";
export { PACING_OPTIONS } from "./pacing.js";
export { RECORDER_MESSAGES, SHORTEST_SECRET, startRecorder, upstreamUrl, type Recorder, type RecorderOptions } from "./recorder.js";
export { MODELS, MODEL_MESSAGES, type ModelSpec } from "./models.js";
export type { OptionSpec } from "./scenarios/types.js";
export { MESSAGES as VALIDATION_MESSAGES } from "./validate.js";
