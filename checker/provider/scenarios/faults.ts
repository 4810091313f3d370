/**
 * Infrastructure faults. Each fails the first `faults` attempts of a request (counted
 * per request fingerprint, so a retry of the same body is the next attempt) and then
 * answers normally. Any of them accepts shouldRetry=true|false to send x-should-retry.
 */
import { defineScenario, drop, fault, numberOption, text } from "./helpers.js";
import type { ScenarioContext, ScenarioReply } from "./types.js";

const success = (ctx: ScenarioContext) => text(`Done: ${ctx.lastUserText}`);

function extraHeaders(ctx: ScenarioContext): Record<string, string> {
  const value = ctx.options["shouldRetry"];
  return value === "true" || value === "false" ? { "x-should-retry": value } : {};
}

function failing(ctx: ScenarioContext, defaultFaults: number, failure: () => ScenarioReply): ScenarioReply {
  return ctx.attempt <= numberOption(ctx, "faults", defaultFaults) ? failure() : success(ctx);
}

export const rateLimited = defineScenario({
  name: "rate-limited",
  description: "429 with retry-after (retryAfter=1 s, or retryAfterMs) for faults=2 attempts, then success",
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
  reply: (ctx) => failing(ctx, 3, () => fault(529, "Overloaded", { headers: extraHeaders(ctx) })),
});

export const serverErrors = defineScenario({
  name: "server-errors",
  description: "500 and 503 in turn (or only status=N) for faults=2 attempts, then success",
  reply: (ctx) =>
    failing(ctx, 2, () => {
      const forced = numberOption(ctx, "status", 0);
      const status = forced || (ctx.attempt % 2 === 1 ? 500 : 503);
      const message = status === 503 ? "Service unavailable" : "Internal server error";
      return fault(status, message, { headers: extraHeaders(ctx) });
    }),
});

export const badRequest = defineScenario({
  name: "bad-request",
  description: "400 invalid_request_error on every attempt",
  reply: (ctx) =>
    fault(
      400,
      `max_tokens: 200000 > 128000, which is the maximum allowed number of output tokens for ${ctx.request.model}`,
      { headers: extraHeaders(ctx) },
    ),
});

export const dropBeforeHeaders = defineScenario({
  name: "drop-before-headers",
  description: "closes the socket before any header for faults=1 attempts, then success",
  reply: (ctx) => failing(ctx, 1, () => drop("before-headers")),
});

export const dropMidStream = defineScenario({
  name: "drop-mid-stream",
  description: "sends part of the reply, then cuts the connection, for faults=1 attempts; then success",
  reply: (ctx) => failing(ctx, 1, () => drop("mid-stream")),
});
