/**
 * Infrastructure faults. Each fails the first `faults` attempts of a request (counted
 * per request fingerprint, so a retry of the same body is the next attempt) and then
 * answers normally. Any of them accepts shouldRetry=true|false to send x-should-retry.
 */
import { defineScenario, drop, fault, numberOption, text } from "./helpers.js";
import { decimal, flag, integer, isOn } from "./options.js";
import type { ScenarioContext, ScenarioReply } from "./types.js";

const success = (ctx: ScenarioContext) => text(`Done: ${ctx.lastUserText}`);

/** How many attempts may fail: enough for any retry test, few enough to stay a test. */
const faults = integer(0, 1000);
const shouldRetry = flag();

function extraHeaders(ctx: ScenarioContext): Record<string, string> {
  return ctx.options["shouldRetry"] === undefined ? {} : { "x-should-retry": String(isOn(ctx.options, "shouldRetry")) };
}

function failing(ctx: ScenarioContext, defaultFaults: number, failure: () => ScenarioReply): ScenarioReply {
  return ctx.attempt <= numberOption(ctx, "faults", defaultFaults) ? failure() : success(ctx);
}

export const rateLimited = defineScenario({
  name: "rate-limited",
  description: "429 with retry-after (retryAfter=1 s, or retryAfterMs) for faults=2 attempts, then success",
  options: { faults, retryAfter: decimal(0, 3600), retryAfterMs: decimal(0, 3_600_000), shouldRetry },
  reply: (ctx) =>
    failing(ctx, 2, () => {
      const headers: Record<string, string> = { ...extraHeaders(ctx) };
      if (ctx.options["retryAfterMs"] !== undefined) headers["retry-after-ms"] = ctx.options["retryAfterMs"];
      else headers["retry-after"] = String(numberOption(ctx, "retryAfter", 1));
      return fault(429, "Number of requests has exceeded your per-minute rate limit. Wait before sending more.", { headers });
    }),
});

export const overloaded = defineScenario({
  name: "overloaded",
  description: "529 overloaded_error for faults=3 attempts, then success",
  options: { faults, shouldRetry },
  reply: (ctx) => failing(ctx, 3, () => fault(529, "Overloaded", { headers: extraHeaders(ctx) })),
});

export const serverErrors = defineScenario({
  name: "server-errors",
  description: "500 and 503 in turn (or only status=N) for faults=2 attempts, then success",
  options: { faults, status: integer(500, 599), shouldRetry },
  reply: (ctx) =>
    failing(ctx, 2, () => {
      const forced = numberOption(ctx, "status", 0);
      const status = forced || (ctx.attempt % 2 === 1 ? 500 : 503);
      const message = status === 503 ? "Service unavailable" : "Internal server error";
      return fault(status, message, { headers: extraHeaders(ctx) });
    }),
});

/** The API's own texts for the client errors a retry must not repeat. */
const CLIENT_ERROR_MESSAGES: Record<number, string> = {
  401: "invalid x-api-key",
  403: "Your API key does not have permission to use the specified resource.",
  404: "The requested resource could not be found.",
  413: "Request exceeds the maximum allowed number of bytes.",
  422: "The request was well-formed but could not be processed.",
};

export const clientErrors = defineScenario({
  name: "client-errors",
  description: "a 4xx (status=401 by default) on every attempt: final, never worth retrying",
  options: { status: integer(400, 499), shouldRetry },
  reply: (ctx) => {
    const status = numberOption(ctx, "status", 401);
    return fault(status, CLIENT_ERROR_MESSAGES[status] ?? "The request was refused.", { headers: extraHeaders(ctx) });
  },
});

export const badRequest = defineScenario({
  name: "bad-request",
  description: "400 invalid_request_error on every attempt",
  options: { shouldRetry },
  reply: (ctx) =>
    fault(400, `max_tokens: 200000 > 128000, which is the maximum allowed number of output tokens for ${ctx.request.model}`, { headers: extraHeaders(ctx) }),
});

export const dropBeforeHeaders = defineScenario({
  name: "drop-before-headers",
  description: "closes the socket before any header for faults=1 attempts, then success",
  options: { faults },
  reply: (ctx) => failing(ctx, 1, () => drop("before-headers")),
});

export const dropMidStream = defineScenario({
  name: "drop-mid-stream",
  description: "sends part of the reply, then cuts the connection, for faults=1 attempts; then success",
  options: { faults },
  reply: (ctx) => failing(ctx, 1, () => drop("mid-stream")),
});
