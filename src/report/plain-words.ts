/**
 * A matcher's text in plain words. vitest says "expected 6060 to be greater than 6060" or
 * "expected NaN to be +0 // Object.is equality", which reads as if the test expected NaN; the
 * learner reads "found 6060; it should be more than 6060" and "found NaN; it should equal 0".
 * The words are few on purpose: equal, more than, less than, at least, at most, contain.
 */

/** What a plain matcher text starts with, and what leads what it should be instead; failure-words.ts splits on them. */
export const FOUND = "found";
export const SHOULD = "it should";

/** "+0" and "-0" are how vitest prints a zero, alone or in a list; a learner reads 0. */
const value = (text: string) => text.replace(/(^|[\s[,(])[+-]0(?=$|[\s,\])])/g, (_, before: string) => `${before}0`);

/** `found` and what it should be instead. */
const said = (found: string, should: string) => `${FOUND} ${value(found)}; ${SHOULD} ${should}`;

const STATES: Record<string, string> = {
  null: "be null",
  undefined: "be undefined",
  defined: "be defined",
  nullish: "be null or undefined",
  NaN: "be NaN",
  truthy: "count as true",
  falsy: "count as false",
  true: "be true",
  false: "be false",
  empty: "be empty",
};

/** A matcher's verb phrase, "to", "not to" or "to not": group 2 of each pattern below. */
const TO = "(to|not to|to not)";
/** "not to" and "to not" are both "not "; "to" is nothing. */
const not = (phrase: string) => (phrase === "to" ? "" : "not ");

type Rewrite = [RegExp, (groups: string[]) => string];

/** "expected <found> <to|not to|to not> <relation> <wanted>", relation by relation. */
const relation = (words: string, plain: (wanted: string) => string): Rewrite => [
  new RegExp(`^expected (.+?) ${TO} ${words} (.+)$`, "s"),
  ([, found, to, wanted]) => said(found!, `${not(to!)}${plain(wanted!)}`),
];

/**
 * Each matcher's sentence. The found value is matched lazily: a value holding " to be " of
 * its own is rare, and then the text only reads oddly; it says nothing false.
 */
const REWRITES: Rewrite[] = [
  [/^expected (.+?) to have a length of (.+?) but got (.+)$/s, ([, , length, got]) => said(`a length of ${value(got!)}`, `be ${value(length!)}`)],
  [new RegExp(`^expected (.+?) ${TO} be (.+?) // Object\\.is equality$`, "s"), ([, found, to, wanted]) => said(found!, `${not(to!)}equal ${value(wanted!)}`)],
  [
    new RegExp(`^expected (.+?) ${TO} be close to (.+?), received difference is (.+?), but expected (.+)$`, "s"),
    ([, found, to, wanted, difference, within]) => `${said(found!, `${not(to!)}be within ${within} of ${value(wanted!)}`)} (it is ${difference} away)`,
  ],
  relation("(?:deeply |strictly )?equal", (wanted) => `equal ${value(wanted)}`),
  relation("be (?:greater than or equal to|at least)", (wanted) => `be at least ${value(wanted)}`),
  relation("be (?:greater than|above)", (wanted) => `be more than ${value(wanted)}`),
  relation("be (?:less than or equal to|at most)", (wanted) => `be at most ${value(wanted)}`),
  relation("be (?:less than|below)", (wanted) => `be less than ${value(wanted)}`),
  relation("(?:contain element|deep equally contain|contain|include)", (wanted) => `contain ${wanted}`),
  relation("match object", (wanted) => `contain the fields of ${wanted}`),
  relation("be an instance of", (wanted) => `be an instance of ${wanted}`),
  relation("be type of", (wanted) => `be of type ${wanted}`),
  relation("have property", (wanted) => `have the field ${wanted}`),
  [new RegExp(`^expected (.+?) ${TO} be (${Object.keys(STATES).join("|")})$`, "s"), ([, found, to, state]) => said(found!, `${not(to!)}${STATES[state!]}`)],
];

/**
 * A matcher's text ("expected …") in plain words; a text this does not know keeps its words,
 * without vitest's "// Object.is equality" note. Anything else is returned as it is.
 */
export function plainMatcherText(text: string): string {
  if (!text.startsWith("expected ")) return text;
  for (const [pattern, rewrite] of REWRITES) {
    const match = pattern.exec(text);
    if (match) return rewrite([...match]);
  }
  return text.replace(/ \/\/ Object\.is equality$/, "");
}

/** vitest's words for a test past its time limit, which advise a test's author; the learner is told what it means for their code. */
const TIMED_OUT = /^Test timed out in (\d+)ms\.[\s\S]*$/;

export const PLAIN_WORDS = {
  timedOut: (seconds: number) =>
    `This test did not finish within its ${seconds} s: something in your code keeps going (a loop that never ends, or a promise that never settles).`,
} as const;

/** A message that is not a matcher's, in the learner's words where vitest's are meant for someone else; otherwise as it is. */
export function plainOtherText(text: string): string {
  const timedOut = TIMED_OUT.exec(text);
  return timedOut ? PLAIN_WORDS.timedOut(Number(timedOut[1]) / 1000) : text;
}
