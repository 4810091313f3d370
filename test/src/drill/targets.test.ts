import { join, resolve } from "node:path";
import { expect, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import { DEFAULT_CONFIG } from "../../../src/config/schema.js";
import { codeChars, drillTargets, isPasted, MIN_TARGET_SECONDS, recallSeconds, typedChars } from "../../../src/drill/targets.js";

const root = resolve(import.meta.dirname, "../../..");
const exercises = loadExercises(join(root, "exercises"), join(root, "solutions"));
const byNumber = (n: number) => exercises.find((e) => e.number === n)!;

test("code characters leave out spaces and comments, strings kept whole", () => {
  expect(codeChars("// a note\nconst a = 1; /* more */\n")).toBe("consta=1;".length);
  expect(codeChars('const url = "http://x";\n')).toBe('consturl="http://x";'.length);
  expect(typedChars("export function f() {}\n", "export function f() {\n  return 42;\n}\n")).toBe("return42;".length);
  expect(typedChars("long given text", "")).toBe(0);
});

test("each exercise has its own time target, sized from its solution: exercise 1 is 10 minutes, 12 is several times that", () => {
  const seconds = exercises.map((e) => recallSeconds(e));
  expect(recallSeconds(byNumber(1))).toBe(600);
  expect(recallSeconds(byNumber(12))).toBeGreaterThan(3 * recallSeconds(byNumber(1)));
  expect(recallSeconds(byNumber(11))).toBeGreaterThan(recallSeconds(byNumber(2)));
  for (const s of seconds) {
    expect(s % 60).toBe(0);
    expect(s).toBeGreaterThanOrEqual(MIN_TARGET_SECONDS);
  }
  expect(new Set(seconds).size).toBeGreaterThan(4);
});

test("the config's targets win when set; each exercise's own otherwise", () => {
  expect(drillTargets(byNumber(12), DEFAULT_CONFIG.drill)).toEqual({ seconds: recallSeconds(byNumber(12)), lines: byNumber(12).targetLines });
  expect(drillTargets(byNumber(12), { targetSeconds: 900, targetLines: 40 })).toEqual({ seconds: 900, lines: 40 });
});

test("pasted: green in less time than typing its code at 15 characters a second", () => {
  expect(isPasted(1_500, 3)).toBe(true);
  expect(isPasted(1_500, 99)).toBe(true);
  expect(isPasted(1_500, 100)).toBe(false);
  expect(isPasted(0, 0)).toBe(false);
});
