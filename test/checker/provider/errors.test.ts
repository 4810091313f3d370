/** Every fault arrives as the SDK's own error class, in the API's error shape, with a request id. */
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { ask, clientFor, expectErrorResponse, ID, MODEL, post, rejection, useProvider } from "./support.js";

const provider = useProvider();

/** The error body the SDK parsed, checked against the header the SDK read the request id from. */
function expectApiErrorBody(err: InstanceType<typeof Anthropic.APIError>, type: string, message: string): void {
  expect(err.requestID).toMatch(ID.request);
  expect(err.error).toEqual({ type: "error", error: { type, message }, request_id: err.requestID });
}

describe("scripted faults, maxRetries 0", () => {
  it("rate-limited: RateLimitError with retry-after readable from err.headers", async () => {
    const err = await rejection(clientFor(provider(), "rate-limited", { options: { retryAfter: 7 } }).messages.create(ask("hi")));
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect(err.status).toBe(429);
    expect(err.headers.get("retry-after")).toBe("7");
    expectApiErrorBody(err, "rate_limit_error", "Number of requests has exceeded your per-minute rate limit. Wait before sending more.");
  });

  it("server-errors status=500: InternalServerError itself, type api_error", async () => {
    const err = await rejection(clientFor(provider(), "server-errors", { options: { status: 500 } }).messages.create(ask("hi")));
    expect(err.constructor).toBe(Anthropic.InternalServerError);
    expectApiErrorBody(err, "api_error", "Internal server error");
  });

  it("server-errors status=503: ServiceUnavailableError", async () => {
    const err = await rejection(clientFor(provider(), "server-errors", { options: { status: 503 } }).messages.create(ask("hi")));
    expect(err).toBeInstanceOf(Anthropic.ServiceUnavailableError);
    expect(err.status).toBe(503);
    expectApiErrorBody(err, "api_error", "Service unavailable");
  });

  it.each([
    [401, Anthropic.AuthenticationError, "authentication_error", "invalid x-api-key"],
    [403, Anthropic.PermissionDeniedError, "permission_error", "Your API key does not have permission to use the specified resource."],
    [404, Anthropic.NotFoundError, "not_found_error", "The requested resource could not be found."],
    [422, Anthropic.UnprocessableEntityError, "invalid_request_error", "The request was well-formed but could not be processed."],
  ] as const)("client-errors status=%i: the SDK's own class, on every attempt", async (status, errorClass, type, message) => {
    const client = clientFor(provider(), "client-errors", { options: { status } });
    for (let attempt = 0; attempt < 2; attempt++) {
      const err = await rejection(client.messages.create(ask("same")));
      expect(err.constructor).toBe(errorClass);
      expectApiErrorBody(err, type, message);
    }
  });

  it("server-errors alternates 500 then 503 across attempts of the same request", async () => {
    const client = clientFor(provider(), "server-errors");
    expect((await rejection(client.messages.create(ask("same")))).status).toBe(500);
    expect((await rejection(client.messages.create(ask("same")))).status).toBe(503);
    expect((await client.messages.create(ask("same"))).content).toEqual([{ type: "text", text: "Done: same" }]);
  });

  it("overloaded: OverloadedError (529) with type overloaded_error", async () => {
    const err = await rejection(clientFor(provider(), "overloaded").messages.create(ask("hi")));
    expect(err).toBeInstanceOf(Anthropic.OverloadedError);
    expect(err.status).toBe(529);
    expectApiErrorBody(err, "overloaded_error", "Overloaded");
  });

  it("bad-request: BadRequestError naming the model", async () => {
    const err = await rejection(clientFor(provider(), "bad-request").messages.create(ask("hi")));
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expectApiErrorBody(err, "invalid_request_error", `max_tokens: 200000 > 128000, which is the maximum allowed number of output tokens for ${MODEL}`);
  });

  it("drop-before-headers: APIConnectionError, and the exchange is recorded as dropped with no status", async () => {
    const client = clientFor(provider(), "drop-before-headers");
    const err = await rejection(client.messages.create(ask("hi")));
    expect(err.constructor).toBe(Anthropic.APIConnectionError);
    expect(provider().requests.at(-1)).toMatchObject({ scenario: "drop-before-headers", status: 0, outcome: "dropped" });
  });

  it("drop-mid-stream: headers and the first events arrive, then finalMessage() rejects", async () => {
    const stream = clientFor(provider(), "drop-mid-stream").messages.stream(ask("hi"));
    const seen: string[] = [];
    stream.on("streamEvent", (event) => seen.push(event.type));
    const err = await rejection(stream.finalMessage());
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(Anthropic.APIConnectionError);
    expect(seen[0]).toBe("message_start");
    expect(seen).not.toContain("message_stop");
    expect(provider().requests.at(-1)).toMatchObject({ scenario: "drop-mid-stream", status: 200, outcome: "dropped", stream: true });
  });

  it("drop-mid-stream without streaming: create rejects on a body cut in half", async () => {
    const err = await rejection(clientFor(provider(), "drop-mid-stream").messages.create(ask("hi")));
    expect(err).toBeInstanceOf(Error);
  });
});

describe("errors outside the scenarios", () => {
  it("answers 401 authentication_error when no key is sent", async () => {
    const response = await post(provider(), "/s/echo/v1/messages", JSON.stringify(ask("hi")), { "anthropic-version": "2023-06-01" });
    expectErrorResponse(response, 401, "x-api-key header is required");
  });

  it("settles the missing key before looking at the body: bad JSON without a key is still a 401", async () => {
    const response = await post(provider(), "/s/echo/v1/messages", "{not json", { "anthropic-version": "2023-06-01" });
    expectErrorResponse(response, 401, "x-api-key header is required");
  });

  it("answers 400 when anthropic-version is missing", async () => {
    const response = await post(provider(), "/s/echo/v1/messages", JSON.stringify(ask("hi")), { "x-api-key": "k" });
    expectErrorResponse(response, 400, "anthropic-version: header is required");
  });

  it("answers 404 not_found_error for an unknown path and for a GET", async () => {
    expectErrorResponse(await post(provider(), "/v1/complete", "{}"), 404, "Not found: POST /v1/complete");
    const get = await fetch(`${provider().origin}/s/echo/v1/messages`, { headers: { "x-api-key": "k" } });
    expectErrorResponse({ status: get.status, headers: get.headers, text: "", json: await get.json() }, 404, "Not found: GET /s/echo/v1/messages");
  });

  it("answers 404 NotFoundError for an unknown scenario, listing the known ones", async () => {
    const err = await rejection(clientFor(provider(), "no-such-scenario").messages.create(ask("hi")));
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    const known = provider()
      .scenarios.map((s) => s.name)
      .join(", ");
    expectApiErrorBody(err, "not_found_error", `Unknown scenario "no-such-scenario". Known scenarios: ${known}.`);
  });

  it("answers the default scenario, echo, on the bare /v1/messages path", async () => {
    const client = new Anthropic({ baseURL: provider().origin, apiKey: "k", maxRetries: 0 });
    expect((await client.messages.create(ask("plain"))).content).toEqual([{ type: "text", text: "You said: plain" }]);
  });
});
