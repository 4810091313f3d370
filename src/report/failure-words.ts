/**
 * A failed assertion in the order a learner reads it. The test's name is its sentence of
 * what must hold and is shown above; the matcher's text, in plain words ("found [] with a
 * length of 0; it should be 12", see plain-words.ts), is labelled as what was found. vitest's
 * own text ("expected [] to have a length of 12 but got +0") reads as if the test expected [],
 * so where it is still raw it is labelled as what was found instead. An assertion that carries
 * its own sentence, `expect(value, "sentence")`, arrives as "sentence: expected …": that
 * sentence is split off to lead on a line of its own.
 */
import type { TestOutcome } from "../../checker/model/result.js";
import { FOUND, SHOULD } from "./plain-words.js";

export const FAILURE_WORDS = {
  checked: "Checked:",
  instead: "Instead:",
  found: "Found:",
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

/** vitest's raw text, or the plain words made of it ("found …; it should …"). */
const MATCHER = `(expected\\b|${FOUND} [^\\n]*?; ${SHOULD})`;
const MATCHER_TEXT = new RegExp(`^${MATCHER}`);
const WITH_SENTENCE = new RegExp(`: ${MATCHER}`);

/** The label and text a matcher's words are shown with: plain words after "Found:", raw vitest text after "Instead:". */
export function insteadLabel(instead: string): { label: string; text: string } {
  return instead.startsWith(`${FOUND} `)
    ? { label: FAILURE_WORDS.found, text: instead.slice(FOUND.length + 1) }
    : { label: FAILURE_WORDS.instead, text: instead };
}

export function failureWords(message: string): FailureWords {
  if (MATCHER_TEXT.test(message)) return { checked: null, instead: message, other: null };
  const at = WITH_SENTENCE.exec(message)?.index;
  // The sentence sits on the message's first line; a later ": expected" belongs to something else.
  if (at === undefined || message.slice(0, at).includes("\n")) return { checked: null, instead: null, other: message };
  return { checked: message.slice(0, at), instead: message.slice(at + 2), other: null };
}

/** The bug a failing test's explanation names: its own, unless the test marked other assertions as that bug's signature. */
export const bugToTell = (test: TestOutcome) => (test.bug?.summary && test.failure?.bugSignature !== false ? test.bug : null);
