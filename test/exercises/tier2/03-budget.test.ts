/**
 * Exercise 3's tier-2 reference, run: the budget as graph state on a transcript that grows
 * every turn, judged on the usage the provider reported and the route the graph took.
 */
import { HumanMessage } from "@langchain/core/messages";
import { beforeAll, describe, expect, test } from "vitest";
import { usdOf, type ScenarioSession } from "../../../checker/testing/index.js";
import { buildGraph } from "../../../exercises/03-budget/reference/tier2.js";
import { langchainSession } from "./langchain-session.js";
import { userTexts } from "./wire.js";

const LIMIT_USD = 2;
const NOTE = /^Budget note: 80% of the budget is spent/;

/** What each model call cost, priced from the usage the provider returned for it. */
const costs = (session: ScenarioSession) => session.calls().map((call) => usdOf(call.usage!));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

type Spent = Awaited<ReturnType<typeof spend>>;

async function spend() {
  // About 1,700 tokens of notes a turn ($0.04 of output), and the input grows by as much: the
  // limit is reached in about 17 calls, a few of them past 80 %.
  const session = await langchainSession("growing", { grow: 1500 });
  const final = await buildGraph().invoke({ messages: [new HumanMessage("Read the report page by page and take notes.")] }, { recursionLimit: 100 });
  return { session, final };
}

describe("exercise 3, tier 2: the budget as graph state", () => {
  // One run, read three ways: each test asks one question of it.
  let run: Spent;
  beforeAll(async () => {
    run = await spend();
  });

  test("the reducer adds up every call's cost, priced from the usage the provider returned", async () => {
    const { session, final } = run;

    expect(final.spent).toBeCloseTo(sum(costs(session)), 9);
  });

  test("the gate routes to its halt node on the call that reaches the limit: the report comes last and no call follows", async () => {
    const { session, final } = run;

    const paid = costs(session);
    expect(sum(paid), "spent by the last call").toBeGreaterThanOrEqual(LIMIT_USD);
    expect(sum(paid.slice(0, -1)), "spent before the last call").toBeLessThan(LIMIT_USD);
    expect(final.messages.at(-1)?.text).toMatch(/^Stopped: spent \$\d+\.\d\d of \$2\.00\./);
  });

  test("the wrap-up note goes out once, at the end of the transcript, after 80% is spent", async () => {
    const { session } = run;

    const bodies = session.bodies();
    const first = bodies.findIndex((body) => userTexts(body.messages).some((text) => NOTE.test(text)));
    expect(first, "the first request carrying the note").toBeGreaterThan(0);
    expect(sum(costs(session).slice(0, first)), "spent before the note was sent").toBeGreaterThanOrEqual(0.8 * LIMIT_USD);
    expect(
      userTexts(bodies.at(-1)!.messages).filter((text) => NOTE.test(text)),
      "notes in the last request",
    ).toHaveLength(1);
    expect(userTexts(bodies[first]!.messages).at(-1), "the note is the last thing the model reads").toMatch(NOTE);
  });
});
