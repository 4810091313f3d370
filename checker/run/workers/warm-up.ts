/**
 * What a spare worker does while it waits: small agent runs against its own scripted
 * provider (parallel tool calls, results sent back, a stream, a caught 429), over and
 * over, so that the SDK's and the provider's paths are compiled by V8's optimising tiers
 * when the learner saves. One pass is not enough: the first thirty calls after a single
 * pass cost ~18 ms each, against ~1.6 ms once warm. The pool interrupts the rehearsal the
 * moment it hands the spare a run, by writing a line to the spare's stdin: unlike a
 * signal, that is harmless if it arrives before anyone listens.
 */
import Anthropic from "#anthropic-sdk";
import { pathToFileURL } from "node:url";
import { startProvider } from "../../testing/index.js";
import { lazyRunChunkFiles } from "../vitest-internals.js";

/** Enough rehearsals to reach the optimised tiers; bounded so an unused spare goes quiet. */
const MAX_PASSES = 40;

const WEATHER: Anthropic.Tool = {
  name: "get_weather",
  description: "Weather for a city",
  input_schema: { type: "object", properties: { city: { type: "string" }, day: { type: "string" } }, required: ["city"] },
};

type Url = (scenario: string, options?: Record<string, number>) => string;

async function rehearse(url: Url, pass: number, signal: AbortSignal): Promise<void> {
  const stopped = () => signal.aborted;
  const client = new Anthropic({ baseURL: url("weather"), apiKey: `warm-up-${pass}`, maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: `Weather in Paris, Tokyo and Lima? (${pass})` }];
  for (let turn = 0; turn < 4 && !stopped(); turn++) {
    const reply = await client.messages.create({ model: "claude-opus-5", max_tokens: 256, tools: [WEATHER], messages }, { signal });
    if (reply.stop_reason !== "tool_use") break;
    messages.push({ role: "assistant", content: reply.content });
    const results = reply.content.flatMap((b) => (b.type === "tool_use" ? [{ type: "tool_result" as const, tool_use_id: b.id, content: "14C" }] : []));
    messages.push({ role: "user", content: results });
  }
  if (pass % 4 === 0 && !stopped()) {
    await client.messages.stream({ model: "claude-opus-5", max_tokens: 64, tools: [WEATHER], messages: messages.slice(0, 1) }, { signal }).finalMessage();
    const limited = new Anthropic({ baseURL: url("rate-limited", { faults: 1 }), apiKey: `warm-up-${pass}`, maxRetries: 0 });
    await limited.messages.create({ model: "claude-opus-5", max_tokens: 8, messages: [{ role: "user", content: "hi" }] }, { signal }).catch(() => undefined);
  }
}

/** Rehearses until MAX_PASSES or until a line arrives on stdin, whichever is first. */
export async function warmUp(): Promise<void> {
  const halt = new AbortController();
  // The request in flight is abandoned too: a cold first request can take a while.
  const stop = () => halt.abort();
  process.stdin.once("data", stop);
  // Missing chunks (another vitest) only cost the time this was meant to save.
  await Promise.all(lazyRunChunkFiles().map((file) => import(pathToFileURL(file).href).catch(() => undefined)));
  const provider = await startProvider();
  // One turn of the loop lets a line that is already waiting in the pipe be read.
  await new Promise((resolve) => setImmediate(resolve));
  try {
    for (let pass = 0; pass < MAX_PASSES && !halt.signal.aborted; pass++) {
      await rehearse((s, o) => provider.url(s, o ?? {}), pass, halt.signal).catch(() => undefined);
    }
  } finally {
    process.stdin.off("data", stop);
    process.stdin.pause();
    process.stdin.unref();
    await provider.close();
  }
}
