import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { fingerprint } from "../../../src/grade/copies/fingerprint.js";
import { FIXTURE } from "./support.js";

const SOLUTION = readFileSync(join(FIXTURE, "solutions/01-adder.ts"), "utf8");

/** The solution as a copier disguises it: own names, other quotes, comments, another layout. */
const disguised = SOLUTION.replace(/\ba\b/g, "left")
  .replace(/\bb\b/g, "right")
  .replace(/\breply\b/g, "response")
  .replace(/\bblock\b/g, "first")
  .replace(/"/g, "'")
  .replace(/^ {2}/gm, "\t\t")
  .replace(/\{\n/g, "{ // mine\n")
  .replace(/^/, "/* my own work */\n\n");

test("a copy with its own names, quotes, comments and layout has the original's fingerprint", () => {
  expect(disguised).not.toBe(SOLUTION);
  expect(fingerprint(disguised)).toBe(fingerprint(SOLUTION));
  expect(fingerprint(SOLUTION)).toMatch(/^[0-9a-f]{64}$/);
});

test("a different program does not: another operator, another property, another literal", () => {
  const print = fingerprint(SOLUTION);
  expect(fingerprint(SOLUTION.replace("a + b", "a + b + 1"))).not.toBe(print);
  expect(fingerprint(SOLUTION.replace("client.messages.create", "client.messages.countTokens"))).not.toBe(print);
  expect(fingerprint(SOLUTION.replace("max_tokens: 64", "max_tokens: 65"))).not.toBe(print);
  // Names are renamed by where they first appear, so swapping two of them is a different program.
  expect(fingerprint(SOLUTION.replace("return a + b;", "return b + a;"))).not.toBe(print);
});

test("a file that does not parse is compared without its layout; one with nothing in it has no fingerprint", () => {
  const broken = "export function add(a: number {\n  return a +\n}\n";
  expect(fingerprint(broken)).toMatch(/^text:[0-9a-f]{64}$/);
  expect(fingerprint(broken.replace(/\n {2}/g, "\n\t"))).toBe(fingerprint(broken));
  expect(fingerprint("")).toBeNull();
  expect(fingerprint("// nothing yet\n/* still nothing */\n")).toBeNull();
});
