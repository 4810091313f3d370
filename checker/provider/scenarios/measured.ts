/**
 * Text of an exact size in the provider's own token count, and a scenario whose reply
 * has an exact size: what a test needs to rebuild a usage table token for token.
 */
import { countText } from "../tokens.js";
import { defineScenario, numberOption, text } from "./helpers.js";
import { integer } from "./options.js";

/** One o200k token per repetition, with no merges across repetitions. */
const UNIT = " lab";

/** `head` followed by filler, exactly `tokens` tokens long as the provider counts a segment. */
export function padToTokens(head: string, tokens: number): string {
  let repeats = Math.max(0, tokens - countText(head));
  for (let attempt = 0; attempt < 8; attempt++) {
    const candidate = head + UNIT.repeat(repeats);
    const counted = countText(candidate);
    if (counted === tokens) return candidate;
    repeats += tokens - counted;
    if (repeats < 0) break;
  }
  throw new Error(`"${head.slice(0, 40)}…" cannot be padded to exactly ${tokens} tokens (it is ${countText(head)} on its own)`);
}

export const exactReply = defineScenario({
  name: "exact-reply",
  description: "answers every question with a text of exactly out=400 output tokens",
  options: { out: integer(1, 32_000) },
  reply: (ctx) => text(padToTokens("Here is the answer.", numberOption(ctx, "out", 400))),
});
