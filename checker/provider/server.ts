/** The scripted provider's HTTP handling: routing, auth, validation, scenarios or a cassette, recording. */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, invalid } from "./errors.js";
import { readBody, sendJson, sendTruncatedJson } from "./http-io.js";
import { cacheSalts, PromptCache, type CacheUsage } from "./prompt-cache.js";
import { BoundedCounter } from "./bounded-counter.js";
import { checkMaxTokens, resolveModel, type ModelSpec } from "./models.js";
import { PACING_OPTIONS, splitPacing, type Pacing } from "./pacing.js";
import { FUSE_OPTIONS, Fuses, splitFuse } from "./fuse.js";
import { RecordWindow, type RecordLimits } from "./records.js";
import { buildMessage } from "./reply.js";
import { messageOf, runScenario, SCENARIO_MESSAGES } from "./reply-check.js";
import { replayAnswer, replayRefusal } from "./replay.js";
import { parseRoute } from "./route.js";
import { optionProblem } from "./scenarios/options.js";
import { buildContext } from "./scenarios/transcript.js";
import type { Scenario } from "./scenarios/types.js";
import { writeFrames } from "./sse.js";
import { countSegmentsFairly } from "./fair-count.js";
import { renderPrompt, type Segment } from "./tokens.js";
import { MAX_DEPTH, MESSAGES, nestsDeeperThan } from "./validate.js";
import type { MessagesRequest } from "./wire.js";
import type { Exchange } from "./exchange.js";
import type { Cassette } from "./cassette.js";
import { apiKeyOf, breakpointsOf } from "./request-parts.js";
import { WIRE_MESSAGES, wireFor, type ParsedRequest, type Wire } from "./wires.js";

export { DEFAULT_SCENARIO } from "./route.js";
export type { Exchange } from "./exchange.js";
export const DEFAULT_MAX_CONTEXT_TOKENS = 200_000;

export const SERVER_MESSAGES = {
  ...WIRE_MESSAGES,
  notFound: (method: string, path: string) => `Not found: ${method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`,
  unknownScenario: (name: string, known: string[]) =>
    `Unknown scenario ${JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name)}. Known scenarios: ${known.join(", ")}.`,
  internal: (detail: string) => `Internal error in the scripted provider: ${detail}`,
  ...SCENARIO_MESSAGES,
} as const;

export { messageOf };
/** Distinct request fingerprints whose attempts are counted before the oldest are forgotten. */
const ATTEMPT_FINGERPRINTS = 10_000;
/** The path options every scenario takes besides its own. */
const EVERY_SCENARIO_OPTIONS = { ...PACING_OPTIONS, ...FUSE_OPTIONS };

export interface HandlerOptions {
  now: () => number;
  /** The pacing of every answer unless the path asks for another (latency=, perToken=). */
  pacing: Pacing;
  sleep: (ms: number) => Promise<void>;
  cacheMinTokens: number | Record<string, number>;
  maxContextTokens: number;
  maxBodyBytes: number;
  scenarios: Scenario[];
  /** When set, answers come from this cassette instead of the scenarios. */
  cassette?: Cassette;
  models: Readonly<Record<string, ModelSpec>>;
  keep: RecordLimits;
  onExchange?: (exchange: Exchange) => void;
  /** Told of every throw the handler did not expect; the client still gets a 500 api_error. */
  onInternalError?: (err: unknown) => void;
}

export class ProviderHandler {
  readonly cache: PromptCache;
  private readonly window: RecordWindow<Exchange>;
  private readonly attempts = new BoundedCounter(ATTEMPT_FINGERPRINTS);
  private readonly fuses = new Fuses();
  private readonly scenarios = new Map<string, Scenario>();
  private seq = 0;

  constructor(private readonly options: HandlerOptions) {
    this.cache = new PromptCache({ now: options.now, minTokens: options.cacheMinTokens });
    this.window = new RecordWindow(options.keep);
    for (const scenario of options.scenarios) this.scenarios.set(scenario.name, scenario);
  }

  get records(): readonly Exchange[] {
    return this.window.list;
  }

  get forgotten(): number {
    return this.window.forgotten;
  }

  scenarioList(): Scenario[] {
    return [...this.scenarios.values()];
  }

  reset(): void {
    this.window.clear();
    this.attempts.clear();
    this.cache.clear();
  }

  /** Counts how often this exact request (scenario, options, key, body) has arrived. */
  private nextAttempt(scenario: string, options: Record<string, string>, apiKey: string, raw: string): number {
    const fingerprint = createHash("sha256")
      .update(`${scenario}\u0000${JSON.stringify(options)}\u0000${apiKey}\u0000`)
      .update(raw)
      .digest("base64");
    return this.attempts.next(fingerprint);
  }

  private async countPrompt(request: MessagesRequest, wire: Wire): Promise<CountedPrompt> {
    const segments = renderPrompt(request);
    const { counts, total, complete } = await countSegmentsFairly(segments, this.options.maxContextTokens);
    if (!complete || total > this.options.maxContextTokens) throw wire.promptTooLong(total, this.options.maxContextTokens);
    return { segments, counts, total };
  }

  private report(err: unknown): void {
    try {
      this.options.onInternalError?.(err);
    } catch {
      // Reporting must not turn one failure into two.
    }
  }

  /** Answers one request; whatever goes wrong inside, the client gets the API's error shape or a closed socket. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.serve(req, res);
    } catch (err) {
      this.lastResort(res, err, wireFor(parseRoute(req.url ?? "/").endpoint));
    }
  }

  /** For a throw nothing else caught: a 500 api_error if the head is not out yet, else the socket is cut. */
  lastResort(res: ServerResponse, err: unknown, wire: Wire): void {
    this.report(err);
    try {
      if (res.headersSent) throw new Error("head already sent");
      const requestId = wire.newRequestId();
      sendJson(res, 500, wire.errorBody(new ApiError(500, SERVER_MESSAGES.internal(messageOf(err))), requestId), { [wire.requestIdHeader]: requestId });
    } catch {
      res.destroy();
    }
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const route = parseRoute(req.url ?? "/");
    const wire = wireFor(route.endpoint);
    const requestId = wire.newRequestId();
    const { pacing, rest } = splitPacing(route.options, this.options.pacing);
    const { fuse, rest: scenarioOptions } = splitFuse(rest);
    const record: Exchange = {
      seq: ++this.seq,
      at: this.options.now(),
      ms: 0,
      method: req.method ?? "GET",
      path: req.url ?? "/",
      endpoint: route.endpoint,
      scenario: route.endpoint === "unknown" || this.options.cassette ? null : route.scenario,
      options: route.options,
      apiKey: apiKeyOf(req),
      requestId,
      stream: false,
      body: null,
      status: 0,
      outcome: "error",
      response: null,
      usage: null,
      attempt: 0,
    };
    const headers = { [wire.requestIdHeader]: requestId };
    let size = 0;
    const finish = () => {
      record.ms = performance.now() - started;
      this.window.add(record, size + (record.usage?.output_tokens ?? 0) * 4);
      try {
        this.options.onExchange?.(record);
      } catch {
        // A listener's failure (a full disk under --log, say) must not take the answer down with it.
      }
    };
    const fail = (error: ApiError) => {
      record.status = error.status;
      record.outcome = "error";
      record.response = wire.errorBody(error, requestId) as Exchange["response"];
      sendJson(res, error.status, record.response, { ...headers, ...error.headers });
      finish();
    };

    let raw: string;
    try {
      raw = await readBody(req, this.options.maxBodyBytes);
    } catch (err) {
      return fail(err instanceof ApiError ? err : new ApiError(400, messageOf(err)));
    }
    size = raw.length;
    const routed = route.endpoint !== "unknown" && req.method === "POST";
    const rawExcerpt = () => (raw.length > 2048 ? `${raw.slice(0, 2048)}…` : raw);
    // Who is asking is settled before what they sent, as on the real API.
    if (routed && !record.apiKey) {
      record.body = rawExcerpt();
      return fail(wire.missingKey());
    }
    if (routed && this.fuses.blown(record.apiKey!, fuse)) {
      req.socket.destroy();
      return;
    }
    try {
      record.body = JSON.parse(raw);
    } catch (err) {
      record.body = rawExcerpt();
      if (routed) return fail(wire.bodyNotJson(messageOf(err)));
    }
    // Rendering and hashing recurse, and so may whoever reads the record: refuse such a body as text.
    if (routed && typeof record.body === "object" && record.body !== null && nestsDeeperThan(record.body, MAX_DEPTH)) {
      record.body = rawExcerpt();
      return fail(new ApiError(400, MESSAGES.bodyTooDeep));
    }
    if (pacing.latencyMs > 0) await this.options.sleep(pacing.latencyMs);

    try {
      if (!routed) throw new ApiError(404, SERVER_MESSAGES.notFound(record.method, record.path));
      if (!record.apiKey) throw wire.missingKey();
      const headerProblem = wire.headerProblem(req);
      if (headerProblem) throw headerProblem;
      if (route.problem) throw invalid(route.problem);
      const cassette = this.options.cassette;
      const scenario = cassette ? null : this.scenarios.get(route.scenario!);
      if (!cassette && !scenario) throw new ApiError(404, SERVER_MESSAGES.unknownScenario(route.scenario!, [...this.scenarios.keys()]));
      const badOption = optionProblem(scenario ?? { name: cassette!.name }, route.options, EVERY_SCENARIO_OPTIONS);
      if (badOption) throw invalid(badOption);
      const parsed = wire.parse(record.body, this.options.models, route.endpoint === "count_tokens");
      const { request } = parsed;
      record.stream = parsed.stream;
      const model = resolveModel(this.options.models, request.model);

      const counting = route.endpoint === "count_tokens";
      if (!counting) checkMaxTokens(model, request.model, request.max_tokens);
      const prompt = await this.countPrompt(request, wire);
      if (counting && !cassette) {
        record.status = 200;
        record.outcome = "count";
        record.response = { input_tokens: prompt.total };
        sendJson(res, 200, record.response, headers);
        return finish();
      }
      if (cassette) {
        const missing = replayAnswer(cassette, record, res);
        if (missing) throw missing;
        return finish();
      }
      return await this.answer(scenario!, { wire, parsed, prompt, pacing, scenarioOptions, raw, record, req, res, headers, finish });
    } catch (err) {
      if (err instanceof ApiError && this.options.cassette && err.status < 500 && replayRefusal(this.options.cassette, record, res)) return finish();
      if (err instanceof ApiError) return fail(err);
      this.report(err);
      return fail(new ApiError(500, SERVER_MESSAGES.internal(messageOf(err))));
    }
  }

  /** Runs the scenario and sends its reply in the wire's shape, paced. */
  private async answer(scenario: Scenario, x: Answering): Promise<void> {
    const { wire, parsed, prompt, pacing, record, req, res, headers, finish } = x;
    const { request } = parsed;
    record.attempt = this.nextAttempt(scenario.name, x.scenarioOptions, record.apiKey!, x.raw);
    const reply = runScenario(scenario, buildContext(request, record.attempt, x.scenarioOptions));

    if (reply.kind === "fault") throw new ApiError(reply.status, reply.message, { ...(reply.type ? { type: reply.type } : {}), headers: reply.headers ?? {} });
    if (reply.kind === "drop" && reply.when === "before-headers") {
      record.outcome = "dropped";
      req.socket.destroy();
      return finish();
    }

    const usage: CacheUsage = this.cache.apply(
      record.apiKey!,
      request.model,
      prompt.segments,
      prompt.counts,
      breakpointsOf(request, prompt.segments),
      cacheSalts(request),
    );
    const seed = createHash("sha256").update(JSON.stringify(request.messages)).digest("hex");
    const message = await buildMessage(
      reply.kind === "message" ? reply : { content: [{ type: "text", text: "This reply is cut short." }] },
      request,
      usage,
      seed,
    );
    const now = this.options.now();
    record.usage = message.usage;
    record.response = wire.body(message, now) as Exchange["response"];
    record.status = 200;
    record.outcome = reply.kind === "drop" ? "dropped" : "message";
    const streamPacing = { outputTokens: message.usage.output_tokens, perTokenMs: pacing.perTokenMs, sleep: this.options.sleep };
    if (reply.kind === "drop") {
      if (record.stream) await writeFrames(res, wire.frames(message, now, parsed), headers, streamPacing, 4);
      else sendTruncatedJson(res, record.response, headers);
      return finish();
    }
    if (record.stream) await writeFrames(res, wire.frames(message, now, parsed), headers, streamPacing);
    else {
      const generating = message.usage.output_tokens * pacing.perTokenMs;
      if (generating > 0) await this.options.sleep(generating);
      sendJson(res, 200, record.response, headers);
    }
    return finish();
  }
}

interface CountedPrompt {
  segments: Segment[];
  counts: number[];
  total: number;
}

interface Answering {
  wire: Wire;
  parsed: ParsedRequest;
  prompt: CountedPrompt;
  pacing: Pacing;
  scenarioOptions: Record<string, string>;
  raw: string;
  record: Exchange;
  req: IncomingMessage;
  res: ServerResponse;
  headers: Record<string, string>;
  finish: () => void;
}
