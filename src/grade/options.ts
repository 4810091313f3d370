/** `lab grade`'s flags, as commander hands them over (strings), checked and turned into settings. */
import { availableParallelism } from "node:os";
import { UserError } from "../terminal/errors.js";
import { GRADE_ERRORS } from "./messages.js";

export const FORMATS = ["table", "json", "csv", "md", "junit", "gradescope", "html"] as const;
export type Format = (typeof FORMATS)[number];

/** Exit code when grading could not run (bad folder, bad flags); learners' results never change it. */
export const GRADE_FAILED = 2;

export interface GradeFlags {
  exercises?: string;
  jobs?: string;
  timeout?: string;
  memory?: string;
  format?: string;
  out?: string;
  fresh?: boolean;
  shard?: string;
  merge?: string[];
}

export interface Shard {
  index: number;
  count: number;
}

export interface GradeSettings {
  /** Exercise numbers to grade, or null for every exercise that exists. */
  exercises: number[] | null;
  jobs: number;
  timeoutSeconds: number;
  memoryMb: number;
  format: Format;
  out: string | null;
  fresh: boolean;
  shard: Shard | null;
}

export const DEFAULT_MEMORY_MB = 512;

const fail = (message: string): never => {
  throw new UserError(message, GRADE_FAILED);
};

/** "1,2,5-7" → [1, 2, 5, 6, 7], sorted, without repeats. */
export function parseExerciseList(value: string): number[] {
  const numbers = new Set<number>();
  for (const part of value.split(",")) {
    const match = /^\s*(\d{1,3})\s*(?:-\s*(\d{1,3})\s*)?$/.exec(part);
    if (!match) fail(GRADE_ERRORS.badExerciseList(value));
    const from = Number(match![1]);
    const to = match![2] === undefined ? from : Number(match![2]);
    if (from < 1 || to < from) fail(GRADE_ERRORS.badExerciseList(value));
    for (let n = from; n <= to; n++) numbers.add(n);
  }
  return [...numbers].sort((a, b) => a - b);
}

/** "2/3" → { index: 2, count: 3 }. */
export function parseShard(value: string): Shard {
  const match = /^\s*(\d{1,6})\s*\/\s*(\d{1,6})\s*$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || index < 1 || count < 1 || index > count) fail(GRADE_ERRORS.badShard(value));
  return { index, count };
}

function number(value: string, ok: (n: number) => boolean, message: string): number {
  const n = /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!ok(n)) fail(message);
  return n;
}

export function parseFormat(value: string): Format {
  if (!(FORMATS as readonly string[]).includes(value)) fail(GRADE_ERRORS.badFormat(value));
  return value as Format;
}

/** The settings for grading a class folder; `defaultTimeout` comes from lab.config.ts. */
export function gradeSettings(flags: GradeFlags, defaultTimeout: number): GradeSettings {
  return {
    exercises: flags.exercises === undefined ? null : parseExerciseList(flags.exercises),
    jobs:
      flags.jobs === undefined ? availableParallelism() : number(flags.jobs, (n) => Number.isInteger(n) && n >= 1 && n <= 64, GRADE_ERRORS.badJobs(flags.jobs)),
    timeoutSeconds: flags.timeout === undefined ? defaultTimeout : number(flags.timeout, (n) => n > 0 && n <= 600, GRADE_ERRORS.badTimeout(flags.timeout)),
    memoryMb:
      flags.memory === undefined
        ? DEFAULT_MEMORY_MB
        : number(flags.memory, (n) => Number.isInteger(n) && n >= 256 && n <= 16384, GRADE_ERRORS.badMemory(flags.memory)),
    format: parseFormat(flags.format ?? "table"),
    out: flags.out ?? null,
    fresh: flags.fresh ?? false,
    shard: flags.shard === undefined ? null : parseShard(flags.shard),
  };
}

/** Flags that only make sense when grading, refused with --merge. */
export function mergeConflicts(flags: GradeFlags): string[] {
  const named: [keyof GradeFlags, string][] = [
    ["jobs", "--jobs"],
    ["timeout", "--timeout"],
    ["memory", "--memory"],
    ["fresh", "--fresh"],
    ["shard", "--shard"],
  ];
  return named.filter(([key]) => flags[key] !== undefined && flags[key] !== false).map(([, name]) => name);
}
