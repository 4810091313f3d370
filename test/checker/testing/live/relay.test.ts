import Anthropic from "@anthropic-ai/sdk";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import { startProvider, type Provider } from "../../../../checker/provider/index.js";
import { startRelay, type Relay } from "../../../../checker/testing/live/relay.js";

// The relay stands between a live session and the real endpoint; the scripted provider plays the
// endpoint here, so what the relay passed on and recorded is compared with what the endpoint saw.

let provider: Provider;
beforeAll(async () => {
  provider = await startProvider();
});
afterAll(() => provider.close());

async function relayTo(upstream: string): Promise<Relay> {
  const relay = await startRelay({ upstream });
  onTestFinished(() => relay.close());
  return relay;
}

const client = (relay: Relay, apiKey = "lab-relay-test") => new Anthropic({ baseURL: relay.url, apiKey, maxRetries: 0 });
const WEATHER: Anthropic.Tool[] = [{ name: "get_weather", input_schema: { type: "object", properties: { city: { type: "string" } } } }];
const ask = { model: "claude-opus-5", max_tokens: 1024, tools: WEATHER, messages: [{ role: "user" as const, content: "Weather in Paris, Tokyo and Lima?" }] };

/** The endpoint's own record of the last request that carried `apiKey`. */
const seenBy = (apiKey: string) => provider.requests.filter((r) => r.apiKey === apiKey).at(-1)!;

describe("the live relay", () => {
  test("a reply comes back as the endpoint sent it, and is recorded in the provider's own shape", async () => {
    const relay = await relayTo(provider.url("weather"));
    const apiKey = "lab-relay-plain";

    const reply = await client(relay, apiKey).messages.create(ask);

    const theirs = seenBy(apiKey);
    expect(reply).toEqual(theirs.response);
    const [ours] = relay.requests;
    expect(ours).toMatchObject({ endpoint: "messages", status: 200, outcome: "message", apiKey, stream: false, requestId: theirs.requestId });
    expect(ours!.body).toEqual(theirs.body);
    expect(ours!.response).toEqual(theirs.response);
    expect(ours!.usage).toEqual(theirs.usage);
  });

  test("a streamed reply is folded back into the message the endpoint streamed, its usage included", async () => {
    const relay = await relayTo(provider.url("weather"));
    const apiKey = "lab-relay-stream";

    const reply = await client(relay, apiKey).messages.stream(ask).finalMessage();

    const theirs = seenBy(apiKey);
    expect(reply.content).toEqual((theirs.response as Anthropic.Message).content);
    const [ours] = relay.requests;
    expect(ours).toMatchObject({ stream: true, status: 200, outcome: "message" });
    expect(ours!.response).toEqual(theirs.response);
    expect(ours!.usage).toEqual(theirs.usage);
  });

  test("an error keeps its status, its headers and its body, and is recorded as an error", async () => {
    const relay = await relayTo(provider.url("rate-limited", { faults: 1, retryAfter: 7 }));

    const error = (await client(relay)
      .messages.create(ask)
      .catch((err: unknown) => err)) as InstanceType<typeof Anthropic.APIError>;

    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect(error.headers?.get("retry-after")).toBe("7");
    expect(relay.requests[0]).toMatchObject({ status: 429, outcome: "error", response: { type: "error", error: { type: "rate_limit_error" } } });
  });

  test("a stream is passed on as it arrives: the client reads the first event before the endpoint has written the rest", async () => {
    let readFirst!: () => void;
    const clientRead = new Promise<void>((resolve) => (readFirst = resolve));
    const endpoint = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('event: ping\ndata: {"type":"ping"}\n\n');
      // The rest is written only once the client has read the first event through the relay.
      void clientRead.then(() => res.end('event: message_stop\ndata: {"type":"message_stop"}\n\n'));
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => endpoint.close(() => resolve())));
    const relay = await relayTo(`http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`);

    const answer = await fetch(`${relay.url}/v1/messages`, { method: "POST", body: "{}" });
    const reader = answer.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    readFirst();
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);

    expect(first).toContain('"type":"ping"');
    expect(rest).toContain('"type":"message_stop"');
  });

  test("an endpoint that cannot be reached drops the client's connection, as the endpoint itself would, and is recorded as dropped", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const relay = await relayTo(`http://127.0.0.1:${port}`);

    const error = await client(relay)
      .messages.create(ask)
      .catch((err: unknown) => err);

    expect(error).toBeInstanceOf(Anthropic.APIConnectionError);
    expect(relay.requests[0]).toMatchObject({ status: 0, outcome: "dropped", response: null });
  });
});
