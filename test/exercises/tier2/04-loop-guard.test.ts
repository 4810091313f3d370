/**
 * Exercise 4's tier-2 reference, run: the guard node between "tools" and "agent", with the
 * tier-3 LoopGuard, against a model that asks for the same call forever.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { buildGraph } from "../../../exercises/04-loop-guard/reference/tier2.js";
import { LoopGuard } from "../../../exercises/04-loop-guard/reference/tier3.js";
import { langchainSession } from "./langchain-session.js";
import { userTexts } from "./wire.js";

/** The tier-3 LoopGuard, keeping everything it said. */
class SayingGuard extends LoopGuard {
  readonly said: string[] = [];

  override check(tool: string, args: unknown, state: unknown, progress?: number): string | null {
    const message = super.check(tool, args, state, progress);
    if (message !== null) this.said.push(message);
    return message;
  }
}

describe("exercise 4, tier 2: the loop guard as a graph node", () => {
  test("the guard nudges once, the model reads the nudge, and the next trip ends the run with a report the model never sees", async () => {
    // "runaway" asks for list_files with the same (empty) input on every turn and never answers.
    const session = await langchainSession("runaway");
    const guard = new SayingGuard();

    const final = await buildGraph(guard).invoke({ messages: [new HumanMessage("Tidy up the workspace.")] });
    const { said } = guard;

    expect(said, "what the guard said: a nudge, then the trip that ends the run").toHaveLength(2);
    const nudge = said[0]!;
    const sent = session.bodies().map((body) => userTexts(body.messages));
    const heard = sent.filter((texts) => texts.includes(nudge));
    expect(heard, "requests carrying the nudge: it went out, and one more call followed it").toHaveLength(1);
    expect(sent.at(-1)?.at(-1), "the nudge is the last thing the model read").toBe(nudge);
    expect(
      sent.flat().some((text) => text.startsWith("Run stopped")),
      "the stop reached the model",
    ).toBe(false);
    expect(final.messages.at(-1)?.text).toBe(`Run stopped: ${said[1]}`);
  });
});
