/** Tool-use / tool-result pairing: the silent bugs of exercise 1, caught with the real API's words. */
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { drive } from "./driver.js";
import { ask, clientFor, rejection, useProvider } from "./support.js";

const provider = useProvider();

const result = (use: Anthropic.ToolUseBlock, content: string): Anthropic.ToolResultBlockParam => ({
  type: "tool_result",
  tool_use_id: use.id,
  content,
});

/** The weather scenario's first turn: three parallel get_weather calls. */
async function firstWeatherTurn(client: Anthropic) {
  const goal = "Weather in Paris, Tokyo and Lima?";
  const reply = await client.messages.create(ask(goal));
  const uses = reply.content as Anthropic.ToolUseBlock[];
  expect(uses).toHaveLength(3);
  return { goal, reply, uses };
}

const messageOf = (err: { error: { error: { message: string } } }) => err.error.error.message;

describe("tool pairing", () => {
  it("rejects a tool_result after an assistant turn sent back as its text only", async () => {
    const client = clientFor(provider(), "capital-weather");
    const goal = "How warm is it today in the capital of France?";
    const first = await client.messages.create(ask(goal));
    const use = first.content[0] as Anthropic.ToolUseBlock;
    const err = await rejection(
      client.messages.create({
        ...ask(goal),
        messages: [
          { role: "user", content: goal },
          { role: "assistant", content: "I will look up the capital first." },
          { role: "user", content: [result(use, "Paris")] },
        ],
      }),
    );
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(messageOf(err)).toBe(
      `messages.2.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${use.id}. ` +
        "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
    );
  });

  it("rejects two of three parallel results, naming the missing id", async () => {
    const client = clientFor(provider(), "weather");
    const { goal, reply, uses } = await firstWeatherTurn(client);
    const err = await rejection(
      client.messages.create({
        ...ask(goal),
        messages: [
          { role: "user", content: goal },
          { role: "assistant", content: reply.content },
          { role: "user", content: [result(uses[0]!, "sunny"), result(uses[1]!, "rain")] },
        ],
      }),
    );
    expect(messageOf(err)).toBe(
      `messages.1: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${uses[2]!.id}. ` +
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    );
  });

  it("joins several missing ids with a comma", async () => {
    const client = clientFor(provider(), "weather");
    const { goal, reply, uses } = await firstWeatherTurn(client);
    const err = await rejection(
      client.messages.create({
        ...ask(goal),
        messages: [
          { role: "user", content: goal },
          { role: "assistant", content: reply.content },
          { role: "user", content: [result(uses[1]!, "rain")] },
        ],
      }),
    );
    expect(messageOf(err)).toBe(
      `messages.1: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${uses[0]!.id}, ${uses[2]!.id}. ` +
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    );
  });

  it("accepts the three results split over three consecutive user messages", async () => {
    const client = clientFor(provider(), "weather");
    const { goal, reply, uses } = await firstWeatherTurn(client);
    const next = await client.messages.create({
      ...ask(goal),
      messages: [
        { role: "user", content: goal },
        { role: "assistant", content: reply.content },
        ...uses.map((use) => ({ role: "user" as const, content: [result(use, "mild")] })),
      ],
    });
    expect(next.stop_reason).toBe("tool_use");
  });
});

describe("the cost of splitting results", () => {
  const forecast = (input: Record<string, unknown>) => `${input["day"] === "today" ? "sunny" : "rain"} in ${String(input["city"])}`;

  it("finishes weather in 3 model calls when each turn's results share one message", async () => {
    const run = await drive(clientFor(provider(), "weather"), "Weather for three cities, today and tomorrow?", { tools: { get_weather: forecast } });
    expect(run.calls).toBe(3);
    expect(run.final.stop_reason).toBe("end_turn");
    expect((run.final.content[0] as Anthropic.TextBlock).text).toBe(
      "Here is the weather.\nParis: sunny in Paris today, rain in Paris tomorrow.\n" +
        "Tokyo: sunny in Tokyo today, rain in Tokyo tomorrow.\nLima: sunny in Lima today, rain in Lima tomorrow.",
    );
  });

  it("takes 5 model calls when results come back one message each, asking one city at a time", async () => {
    const run = await drive(clientFor(provider(), "weather"), "Weather for three cities, today and tomorrow?", {
      tools: { get_weather: forecast },
      split: true,
    });
    expect(run.calls).toBe(5);
    expect(run.replies.map((r) => r.content.length)).toEqual([3, 1, 1, 1, 1]);
    expect(run.final.stop_reason).toBe("end_turn");
  });
});
