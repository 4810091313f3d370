import { expect, test } from "vitest";
import { failureWords, insteadLabel } from "../../../src/report/failure-words.js";
import { messageOf } from "./matcher-message.js";

test("a bare matcher text is what the test found instead, with no sentence of its own", () => {
  const message = messageOf(() => expect([]).toHaveLength(12));
  expect(message).toBe("expected [] to have a length of 12 but got +0");
  expect(failureWords(message)).toEqual({ checked: null, instead: message, other: null });
});

test("expect(value, sentence): the sentence is split off to lead, the matcher text follows", () => {
  const message = messageOf(() => expect([1, 2, 3], "user messages that carried results back").toHaveLength(2));
  expect(failureWords(message)).toEqual({
    checked: "user messages that carried results back",
    instead: "expected [ 1, 2, 3 ] to have a length of 2 but got 3",
    other: null,
  });
});

test("a sentence with colons of its own stays whole, and negated matchers split the same way", () => {
  const message = messageOf(() => expect(new TypeError("no"), "the cap: the harness's own error").not.toBeInstanceOf(Error));
  const words = failureWords(message);
  expect(words.checked).toBe("the cap: the harness's own error");
  expect(words.instead).toBe("expected TypeError: no to not be an instance of Error");
});

test("an error thrown by the code under test, or our own words, is not a matcher's and is kept as it is", () => {
  for (const message of ["Cannot read properties of undefined (reading 'content')", "Not started yet: replace the throw.", "first line\nsecond: expected 3"]) {
    expect(failureWords(message)).toEqual({ checked: null, instead: null, other: message });
  }
});

test("plain words split the same way: the sentence leads, and what was found is labelled Found", () => {
  const words = failureWords("the hit rate of a fresh cache: found NaN; it should equal 0");
  expect(words).toEqual({ checked: "the hit rate of a fresh cache", instead: "found NaN; it should equal 0", other: null });
  expect(insteadLabel(words.instead!)).toEqual({ label: "Found:", text: "NaN; it should equal 0" });
  expect(insteadLabel("expected 1 to be 2")).toEqual({ label: "Instead:", text: "expected 1 to be 2" });
  // An error of the learner's own that starts with "found" is not a matcher's text.
  expect(failureWords("found no tool named lookup")).toEqual({ checked: null, instead: null, other: "found no tool named lookup" });
});
