import { expect, test } from "vitest";
import { PLAIN_WORDS, plainMatcherText, plainOtherText } from "../../../src/report/plain-words.js";
import { messageOf } from "./matcher-message.js";

test("the issue's two examples: a comparison and Object.is equality read as what was found and what it should be", () => {
  const greater = messageOf(() => expect(6060).toBeGreaterThan(6060));
  expect(greater).toBe("expected 6060 to be greater than 6060");
  expect(plainMatcherText(greater)).toBe("found 6060; it should be more than 6060");
  const nan = messageOf(() => expect(Number.NaN).toBe(0));
  expect(nan).toContain("// Object.is equality");
  expect(plainMatcherText(nan)).toBe("found NaN; it should equal 0");
});

test("every everyday matcher in plain words: equal, more or less than, at least, at most, within, contain, length, states", () => {
  const cases: [() => void, string][] = [
    [() => expect([1, 2]).toEqual([1, 3]), "found [ 1, 2 ]; it should equal [ 1, 3 ]"],
    [() => expect({ a: 1 }).toStrictEqual({ a: 2 }), "found { a: 1 }; it should equal { a: 2 }"],
    [() => expect(3).toBeGreaterThanOrEqual(5), "found 3; it should be at least 5"],
    [() => expect(14).toBeLessThanOrEqual(13), "found 14; it should be at most 13"],
    [() => expect(9).toBeLessThan(2), "found 9; it should be less than 2"],
    [() => expect(0.5).toBeCloseTo(0.4, 2), "found 0.5; it should be within 0.005 of 0.4 (it is 0.09999999999999998 away)"],
    [() => expect(["a"]).toContain("b"), "found [ 'a' ]; it should contain 'b'"],
    [() => expect("abc").toContain("z"), "found 'abc'; it should contain 'z'"],
    [() => expect([]).toHaveLength(12), "found a length of 0; it should be 12"],
    [() => expect([2, 0]).toEqual([2, 3]), "found [ 2, 0 ]; it should equal [ 2, 3 ]"],
    [() => expect(3).toBeNull(), "found 3; it should be null"],
    [() => expect(null).not.toBeNull(), "found null; it should not be null"],
    [() => expect(0).toBeTruthy(), "found 0; it should count as true"],
    [() => expect(5).not.toBe(5), "found 5; it should not equal 5"],
    [() => expect({ a: 1 }).toMatchObject({ b: 2 }), "found { a: 1 }; it should contain the fields of { b: 2 }\n(1 matching property omitted from actual)"],
  ];
  for (const [assertion, plain] of cases) expect(plainMatcherText(messageOf(assertion))).toBe(plain);
});

test("a zero vitest prints as +0, alone or inside a list, reads 0", () => {
  expect(plainMatcherText(messageOf(() => expect([2, 0]).toEqual([2, 3])))).toBe("found [ 2, 0 ]; it should equal [ 2, 3 ]");
  expect(plainMatcherText("expected [ 2, +0 ] to deeply equal [ 2, 3 ]")).toBe("found [ 2, 0 ]; it should equal [ 2, 3 ]");
  expect(plainMatcherText("expected +0 to be 1 // Object.is equality")).toBe("found 0; it should equal 1");
});

test("a matcher text it does not know keeps its words, without vitest's equality note; other text is untouched", () => {
  expect(plainMatcherText("expected [Function] to throw an error")).toBe("expected [Function] to throw an error");
  expect(plainMatcherText("expected 'x' to be frozen // Object.is equality")).toBe("found 'x'; it should equal frozen");
  expect(plainMatcherText("Cannot read properties of undefined")).toBe("Cannot read properties of undefined");
});

test("vitest's timeout advice to a test's author becomes what it means for the learner's code", () => {
  const vitest =
    'Test timed out in 2000ms.\nIf this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".';
  expect(plainOtherText(vitest)).toBe(PLAIN_WORDS.timedOut(2));
  expect(PLAIN_WORDS.timedOut(2)).toBe(
    "This test did not finish within its 2 s: something in your code keeps going (a loop that never ends, or a promise that never settles).",
  );
  expect(plainOtherText("not a timeout")).toBe("not a timeout");
});
