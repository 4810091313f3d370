/** The accounting chapter's priced walk-through: replies whose output token counts are set exactly. */
import { defineScenario, integers, text, tokenText, type Scenario } from "../../checker/provider/scenarios/helpers.js";

/** The chapter's walk-through: 180, 150, 120, 260 and 300 output tokens on turns 1 to 5. */
export const WALKTHROUGH_OUTPUT = [180, 150, 120, 260, 300] as const;

export const walkthrough = defineScenario({
  name: "walkthrough",
  description: "answers turn k with exactly out[k] output tokens (out=180,150,120,260,300), then a short line",
  options: { out: integers(1, 32_000, 100) },
  reply(ctx) {
    const listed = ctx.options["out"]?.split(",").map(Number) ?? [...WALKTHROUGH_OUTPUT];
    const tokens = listed[ctx.turn];
    if (tokens === undefined || !Number.isInteger(tokens) || tokens < 1) return text("That is all.");
    return text(tokenText(tokens, "answer"));
  },
});

export const scenarios: Scenario[] = [walkthrough];
