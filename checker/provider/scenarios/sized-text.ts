/**
 * Text of an exact size in the provider's own token count (o200k_base, a segment counted on
 * its own): what a scenario needs to size a reply, and a test to rebuild a usage table token for token.
 */
import { countText } from "../tokens.js";

export { countText };

/**
 * Text of exactly `tokens` o200k_base tokens: "note" and then " note" repeated, each one
 * token. The provider counts a segment's tokens alone, so this holds wherever it is sent.
 */
export function tokenText(tokens: number, word = "note"): string {
  if (!Number.isInteger(tokens) || tokens < 1) throw new RangeError(`tokenText needs a whole number of tokens of at least 1, not ${tokens}`);
  return word + ` ${word}`.repeat(tokens - 1);
}

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
