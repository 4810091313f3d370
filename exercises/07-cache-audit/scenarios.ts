/** The cache audit's scenario: a reply of an exact size, so a test can rebuild a usage table token for token. */
import { defineScenario, integer, numberOption, padToTokens, text, type Scenario } from "../../checker/provider/scenarios/helpers.js";

export const exactReply = defineScenario({
  name: "exact-reply",
  description: "answers every question with a text of exactly out=400 output tokens",
  options: { out: integer(1, 32_000) },
  reply: (ctx) => text(padToTokens("Here is the answer.", numberOption(ctx, "out", 400))),
});

export const scenarios: Scenario[] = [exactReply];
