/**
 * A failed assertion in the order a learner reads it. The test's name is its sentence of
 * what must hold and is shown above; vitest's matcher text ("expected [] to have a length
 * of 12 but got +0") reads as if the test expected [], so it is labelled as what was found
 * instead. An assertion that carries its own sentence, `expect(value, "sentence")`, arrives
 * as "sentence: expected …": that sentence is split off to lead on a line of its own.
 */

export const FAILURE_WORDS = {
  checked: "Checked:",
  instead: "Instead:",
} as const;

export interface FailureWords {
  /** The assertion's own sentence, from `expect(value, "sentence")`; null when it had none. */
  checked: string | null;
  /** The matcher's text, what it found instead; null when the failure is not a matcher's (a thrown error, our own words). */
  instead: string | null;
  /** Any other failure message, shown as it is. */
  other: string | null;
}

/** The first `count` lines of `text`. */
export const firstLines = (text: string, count: number) => text.split("\n").slice(0, count).join("\n");

const MATCHER_TEXT = /^expected\b/;
const WITH_SENTENCE = /: expected\b/;

export function failureWords(message: string): FailureWords {
  if (MATCHER_TEXT.test(message)) return { checked: null, instead: message, other: null };
  const at = WITH_SENTENCE.exec(message)?.index;
  // The sentence sits on the message's first line; a later ": expected" belongs to something else.
  if (at === undefined || message.slice(0, at).includes("\n")) return { checked: null, instead: null, other: message };
  return { checked: message.slice(0, at), instead: message.slice(at + 2), other: null };
}
