/** Scenarios whose token counts are set exactly, for exercise 10's priced walk-through. */
import { defineScenario, text } from "./helpers.js";
import { integers } from "./options.js";

/**
 * Text of exactly `tokens` o200k_base tokens: "note" and then " note" repeated, each one
 * token. The provider counts a segment's tokens alone, so this holds wherever it is sent.
 */
export function tokenText(tokens: number, word = "note"): string {
  if (!Number.isInteger(tokens) || tokens < 1) throw new RangeError(`tokenText needs a whole number of tokens of at least 1, not ${tokens}`);
  return word + ` ${word}`.repeat(tokens - 1);
}

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
