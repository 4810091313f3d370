/**
 * Exercise 5's tier-2 reference, run: the cache node in front of the model, with the tier-3
 * SemanticCache over the staged embeddings, against the scripted provider.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { PARAPHRASES, stagedEmbedder } from "../../../checker/testing/index.js";
import { cacheable, SemanticCache } from "../../../exercises/05-semantic-cache/reference/tier3.js";
import { buildGraph } from "../../../exercises/05-semantic-cache/reference/tier2.js";
import { langchainSession } from "./langchain-session.js";

// Staged at 0.997: above the cache's 0.98, so the second wording must be served the first's answer.
const TRIAL = PARAPHRASES.find((p) => p.a === "Do you offer a free trial?")!;

function graph() {
  const app = buildGraph(new SemanticCache({ embed: stagedEmbedder().embed }), cacheable);
  return async (question: string, tenant: string) => {
    const final = await app.invoke({ messages: [new HumanMessage(question)], tenant });
    return final.messages.at(-1)?.text ?? "";
  };
}

describe("exercise 5, tier 2: the semantic cache as the graph's first node", () => {
  test("a hit is answered by the cache node: the model is not called, and the stored answer comes back", async () => {
    const session = await langchainSession("echo");
    const ask = graph();

    const first = await ask(TRIAL.a, "acme");
    const calls = session.calls().length;
    const second = await ask(TRIAL.b, "acme");

    expect(first).toBe(`You said: ${TRIAL.a}`);
    expect(second, "the answer served for the rewording").toBe(first);
    expect(session.calls().length, "model calls after the hit").toBe(calls);
  });

  test("another tenant's entry is never a hit: the same question from globex goes to the model", async () => {
    const session = await langchainSession("echo");
    const ask = graph();

    await ask(TRIAL.a, "acme");
    const calls = session.calls().length;
    await ask(TRIAL.a, "globex");

    expect(session.calls().length, "model calls after globex asked").toBe(calls + 1);
  });

  test("an answer the rules forbid caching is not stored: a question about 'my order 12345' reaches the model every time", async () => {
    const session = await langchainSession("echo");
    const ask = graph();

    await ask("Where is my order 12345?", "acme");
    const calls = session.calls().length;
    await ask("Where is my order 12345?", "acme");

    expect(session.calls().length, "model calls after asking again").toBe(calls + 1);
  });
});
