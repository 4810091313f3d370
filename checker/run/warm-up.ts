/**
 * What a spare worker does while it waits: one small agent run against its own scripted
 * provider (parallel tool calls, results sent back, a stream, a caught 429), so that the
 * code paths a hidden test takes are already compiled when the learner saves.
 */
import Anthropic from "@anthropic-ai/sdk";
import { startProvider } from "../testing/index.js";

const WEATHER: Anthropic.Tool = {
  name: "get_weather",
  description: "Weather for a city",
  input_schema: { type: "object", properties: { city: { type: "string" }, day: { type: "string" } }, required: ["city"] },
};

export async function warmUp(): Promise<void> {
  const provider = await startProvider();
  try {
    const client = new Anthropic({ baseURL: provider.url("weather"), apiKey: "warm-up", maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Weather in Paris, Tokyo and Lima?" }];
    for (let turn = 0; turn < 3; turn++) {
      const reply = await client.messages.create({ model: "claude-opus-5", max_tokens: 256, tools: [WEATHER], messages });
      if (reply.stop_reason !== "tool_use") break;
      messages.push({ role: "assistant", content: reply.content });
      const results = reply.content.flatMap((b) => (b.type === "tool_use" ? [{ type: "tool_result" as const, tool_use_id: b.id, content: "14C" }] : []));
      messages.push({ role: "user", content: results });
    }
    await client.messages.stream({ model: "claude-opus-5", max_tokens: 64, tools: [WEATHER], messages: messages.slice(0, 1) }).finalMessage();
    const limited = new Anthropic({ baseURL: provider.url("rate-limited", { faults: 1 }), apiKey: "warm-up", maxRetries: 0 });
    await limited.messages.create({ model: "claude-opus-5", max_tokens: 8, messages: [{ role: "user", content: "hi" }] }).catch(() => undefined);
  } finally {
    await provider.close();
  }
}
