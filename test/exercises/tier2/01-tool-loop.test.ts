/**
 * Exercise 1's tier-2 reference, run: the LangGraph loop against the scripted provider,
 * judged on what reached the provider and what the graph returned.
 */
import { describe, expect, test } from "vitest";
import { WEATHER_CITIES } from "../../../checker/testing/index.js";
import { run } from "../../../exercises/01-tool-loop/reference/tier2.js";
import { langchainSession } from "./langchain-session.js";
import { lastTranscript, resultCarriers, resultText, toolResults } from "./wire.js";

describe("exercise 1, tier 2: the loop as a LangGraph graph", () => {
  test("the tool node answers every call of a turn in ONE user message, so the weather takes 3 model calls", async () => {
    const session = await langchainSession("weather");

    const answer = await run("What is the weather in Paris, Tokyo and Lima, today and tomorrow?", "weather");

    const turns = resultCarriers(lastTranscript(session));
    expect(
      turns.map((t) => t.asked),
      "tool calls per assistant turn",
    ).toEqual([3, 3]);
    expect(
      turns.map((t) => t.carriers),
      "user messages carrying each turn's results",
    ).toEqual([1, 1]);
    expect(
      turns.flatMap((t) => t.unanswered),
      "tool_use ids left unanswered",
    ).toEqual([]);
    // The scripted model goes one city per turn once it sees results split: 3 calls is the batched run.
    expect(session.calls(), "model calls").toHaveLength(3);
    for (const city of WEATHER_CITIES) expect(answer).toContain(`14C, rain in ${city} today`);
  });

  test("a tool that throws reaches the model as a tool result holding its error, and the run still answers", async () => {
    const session = await langchainSession("capital-weather");

    const answer = await run("What is the weather in the capital of Atlantis?", "atlantis");

    const sent = lastTranscript(session).flatMap(toolResults).map(resultText);
    expect(
      sent.some((text) => text.includes("no capital known for Atlantis")),
      "tool results sent back",
    ).toBe(true);
    expect(answer).toContain("no capital known for Atlantis");
  });

  test("a reply cut off at max_tokens is refused, not returned as the answer", async () => {
    const session = await langchainSession("truncated");

    await expect(run("Write the whole report.", "report")).rejects.toThrow(/max_tokens/);
    expect(session.calls()[0]?.response).toMatchObject({ stop_reason: "max_tokens" });
  });

  test("recursionLimit caps a model that never stops: GraphRecursionError within 12 model calls", async () => {
    const session = await langchainSession("runaway");

    const error = await run("Tidy up the workspace.", "tidy").then(
      () => null,
      (err: unknown) => err,
    );

    expect((error as Error | null)?.name).toBe("GraphRecursionError");
    expect(session.calls().length, "model calls before the cap").toBeGreaterThan(1);
    expect(session.calls().length, "model calls before the cap").toBeLessThanOrEqual(12);
  });
});
