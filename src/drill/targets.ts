/**
 * What a drill's time is measured against, sized from the exercise itself: the code a learner
 * has to write is the solution's code less what the drill file already holds, counted in
 * characters that are not spaces or comments. Recalled and typed at a steady pace that is the
 * time target; typed faster than anyone can type, the file was pasted.
 */
import { existsSync, readFileSync } from "node:fs";
import type { Exercise } from "../../checker/model/exercises.js";
import type { LabConfig } from "../config/schema.js";
import type { DrillTargets } from "./compare.js";
import { blankComments } from "./code-lines.js";
import { drillSource } from "./drill-source.js";

/** Characters of code a learner writes from memory per second, thinking included: exercise 1 comes to 10 minutes. */
export const RECALL_CHARS_PER_SECOND = 2.5;
/** Faster than the fastest typists (about 180 words a minute): code that arrives quicker was pasted, not typed. */
export const TYPING_CHARS_PER_SECOND = 15;
/** No target is shorter than this, however little there is to write. */
export const MIN_TARGET_SECONDS = 300;

/** The target when the exercise has no solution to size it from (a copy of the lab without solutions/). */
export const FALLBACK_TARGET_SECONDS = 600;

/** Characters of code in a TypeScript file: no whitespace, no comments. */
export const codeChars = (source: string) => blankComments(source).replace(/\s+/g, "").length;

/** Characters of code written into a drill file since it was given. */
export const typedChars = (given: string, now: string) => Math.max(0, codeChars(now) - codeChars(given));

/** Green in less time than typing the file's new code takes: pasted, so never a time from memory. */
export const isPasted = (chars: number, seconds: number) => seconds < chars / TYPING_CHARS_PER_SECOND;

/** The exercise's own time target: its solution's code, less the drill file's, at the recall pace; whole minutes. */
export function recallSeconds(exercise: Pick<Exercise, "solution" | "stub">): number {
  if (!existsSync(exercise.solution)) return FALLBACK_TARGET_SECONDS;
  const given = drillSource(readFileSync(exercise.stub, "utf8"), "");
  const chars = typedChars(given, readFileSync(exercise.solution, "utf8"));
  return Math.max(MIN_TARGET_SECONDS, Math.ceil(chars / RECALL_CHARS_PER_SECOND / 60) * 60);
}

/** The targets of a drill: the config's when it sets one, else the exercise's own. */
export function drillTargets(exercise: Pick<Exercise, "solution" | "stub" | "targetLines">, drill: LabConfig["drill"]): DrillTargets {
  return { seconds: drill.targetSeconds ?? recallSeconds(exercise), lines: drill.targetLines ?? exercise.targetLines };
}
