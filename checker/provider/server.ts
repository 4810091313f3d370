/** The scripted provider's HTTP handling: routing, auth, validation, scenarios, recording. */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, invalid } from "./errors.js";
import { readBody, sendJson, sendTruncatedJson } from "./http-io.js";
import { requestId as newRequestId } from "./ids.js";
import { cacheSalts, PromptCache, type CacheUsage } from "./prompt-cache.js";
import { BoundedCounter } from "./bounded-counter.js";
import { checkMaxTokens, resolveModel, type ModelSpec } from "./models.js";
import { RecordWindow, type RecordLimits } from "./records.js";
import { buildMessage } from "./reply.js";
import { messageOf, runScenario, SCENARIO_MESSAGES } from "./reply-check.js";
import { parseRoute, type Route } from "./route.js";
import { optionProblem } from "./scenarios/options.js";
import { buildContext } from "./scenarios/transcript.js";
import type { Scenario } from "./scenarios/types.js";
import { writeStream } from "./sse.js";
import { countSegmentsFairly } from "./fair-count.js";
import { renderPrompt } from "./tokens.js";
import { MAX_DEPTH, MESSAGES, nestsDeeperThan, validateMessagesRequest } from "./validate.js";
import type { MessagesRequest } from "./wire.js";
import type { Exchange } from "./exchange.js";
import { apiKeyOf, breakpointsOf } from "./request-parts.js";

export { DEFAULT_SCENARIO } from "./route.js";
export type { Exchange } from "./exchange.js";
export const DEFAULT_MAX_CONTEXT_TOKENS = 200_000;

export const SERVER_MESSAGES = {
  missingKey: "x-api-key header is required",
  missingVersion: "anthropic-version: header is required",
  notFound: (method: string, path: string) => `Not found: ${method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`,
  unknownScenario: (name: string, known: string[]) =>
    `Unknown scenario ${JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name)}. Known scenarios: ${known.join(", ")}.`,
  internal: (detail: string) => `Internal error in the scripted provider: ${detail}`,
  ...SCENARIO_MESSAGES,
} as const;

export { messageOf };
/** Distinct request fingerprints whose attempts are counted before the oldest are forgotten. */
const ATTEMPT_FINGERPRINTS = 10_000;

export interface HandlerOptions {
  now: () => number;
  latencyMs: number;
  cacheMinTokens: number | Record<string, number>;
  maxContextTokens: number;
  maxBodyBytes: number;
  scenarios: Scenario[];
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
  private nextAttempt(route: Route, apiKey: string, raw: string): number {
    const fingerprint = createHash("sha256")
      .update(`${route.scenario}\u0000${JSON.stringify(route.options)}\u0000${apiKey}\u0000`)
      .update(raw)
      .digest("base64");
    return this.attempts.next(fingerprint);
  }

  private async countPrompt(request: MessagesRequest) {
    const segments = renderPrompt(request);
    const { counts, total, complete } = await countSegmentsFairly(segments, this.options.maxContextTokens);
    if (!complete || total > this.options.maxContextTokens) throw new ApiError(400, MESSAGES.promptTooLong(total, this.options.maxContextTokens));
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
      this.lastResort(res, err);
    }
  }

  /** For a throw nothing else caught: a 500 api_error if the head is not out yet, else the socket is cut. */
  lastResort(res: ServerResponse, err: unknown): void {
    this.report(err);
    try {
      if (res.headersSent) throw new Error("head already sent");
      const requestId = newRequestId();
      sendJson(res, 500, new ApiError(500, SERVER_MESSAGES.internal(messageOf(err))).body(requestId), { "request-id": requestId });
    } catch {
      res.destroy();
    }
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = newRequestId();
    const route = parseRoute(req.url ?? "/");
    const record: Exchange = {
      seq: ++this.seq,
      at: this.options.now(),
      ms: 0,
      method: req.method ?? "GET",
      path: req.url ?? "/",
      endpoint: route.endpoint,
      scenario: route.endpoint === "unknown" ? null : route.scenario,
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
    const headers = { "request-id": requestId };
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
      record.response = error.body(requestId);
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
      return fail(new ApiError(401, SERVER_MESSAGES.missingKey));
    }
    try {
      record.body = JSON.parse(raw);
    } catch (err) {
      record.body = rawExcerpt();
      if (routed) return fail(new ApiError(400, MESSAGES.bodyNotJson(messageOf(err))));
    }
    // Rendering and hashing recurse, and so may whoever reads the record: refuse such a body as text.
    if (routed && typeof record.body === "object" && record.body !== null && nestsDeeperThan(record.body, MAX_DEPTH)) {
      record.body = rawExcerpt();
      return fail(new ApiError(400, MESSAGES.bodyTooDeep));
    }
    if (this.options.latencyMs > 0) await new Promise((r) => setTimeout(r, this.options.latencyMs));

    try {
      if (!routed) throw new ApiError(404, SERVER_MESSAGES.notFound(record.method, record.path));
      if (!record.apiKey) throw new ApiError(401, SERVER_MESSAGES.missingKey);
      if (!req.headers["anthropic-version"]) throw new ApiError(400, SERVER_MESSAGES.missingVersion);
      if (route.problem) throw invalid(route.problem);
      const scenario = this.scenarios.get(route.scenario!);
      if (!scenario) throw new ApiError(404, SERVER_MESSAGES.unknownScenario(route.scenario!, [...this.scenarios.keys()]));
      const badOption = optionProblem(scenario, route.options);
      if (badOption) throw invalid(badOption);
      const request = validateMessagesRequest(record.body, { countOnly: route.endpoint === "count_tokens" });
      record.stream = request.stream === true;
      const model = resolveModel(this.options.models, request.model);

      if (route.endpoint === "count_tokens") {
        const { total } = await this.countPrompt(request);
        record.status = 200;
        record.outcome = "count";
        record.response = { input_tokens: total };
        sendJson(res, 200, record.response, headers);
        return finish();
      }

      checkMaxTokens(model, request.model, request.max_tokens);
      const prompt = await this.countPrompt(request);
      record.attempt = this.nextAttempt(route, record.apiKey, raw);
      const reply = runScenario(scenario, buildContext(request, record.attempt, route.options));

      if (reply.kind === "fault")
        throw new ApiError(reply.status, reply.message, { ...(reply.type ? { type: reply.type } : {}), headers: reply.headers ?? {} });
      if (reply.kind === "drop" && reply.when === "before-headers") {
        record.outcome = "dropped";
        req.socket.destroy();
        return finish();
      }

      const usage: CacheUsage = this.cache.apply(
        record.apiKey,
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
      record.usage = message.usage;
      record.response = message;
      record.status = 200;
      record.outcome = reply.kind === "drop" ? "dropped" : "message";
      if (reply.kind === "drop") {
        if (record.stream) await writeStream(res, message, headers, 4);
        else sendTruncatedJson(res, message, headers);
        return finish();
      }
      if (record.stream) await writeStream(res, message, headers);
      else sendJson(res, 200, message, headers);
      return finish();
    } catch (err) {
      if (err instanceof ApiError) return fail(err);
      this.report(err);
      return fail(new ApiError(500, SERVER_MESSAGES.internal(messageOf(err))));
    }
  }
}
