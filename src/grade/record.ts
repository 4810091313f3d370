/** One learner × exercise result as grading stores it: a line of results.jsonl. */

/** Bumped when the meaning of a record changes; records of another format are not reused. */
export const RECORD_FORMAT = 1;

export type GradeState = "pass" | "fail" | "error" | "missing" | "timeout";

/** One hidden test, in exercism's test-runner terms. */
export interface TestEntry {
  name: string;
  status: "pass" | "fail" | "error";
  message: string | null;
}

export interface GradeRecord {
  format: typeof RECORD_FORMAT;
  /** "ada/01-tool-loop" */
  key: string;
  learner: string;
  /** "01-tool-loop" */
  exercise: string;
  number: number;
  title: string;
  /** The learner's file relative to the class folder. */
  file: string;
  /** sha256 of the learner's file, null when it is missing or was not read. */
  fileHash: string | null;
  /** sha256 of the hidden test it ran against. */
  testHash: string;
  /** The limits it ran under; a result is reused only under the same limits. */
  limits: string;
  state: GradeState;
  passed: number;
  total: number;
  /** The first test that did not pass, with the first line of why. */
  firstFailure: { test: string; message: string } | null;
  /** Why the tests could not run normally (error, timeout, missing); null otherwise. */
  reason: string | null;
  /** Wall-clock time of the run, null when nothing ran. */
  ms: number | null;
  /** The learner's best passed drill time for this exercise, in seconds. */
  bestDrillSeconds: number | null;
  /** What the learner opened of the answer before passing (their progress.json): "solution", "tier 3". Absent in older records. */
  peeks?: string[];
  tests: TestEntry[];
  /** When the record was made (ISO); the later of two records for a key wins. */
  at: string;
}

/** A folder name: no separators, not hidden, not "." or "..". */
const LEARNER_NAME = /^[^./\\][^/\\]*$/;

export const limitsOf = (timeoutSeconds: number, memoryMb: number) => `timeout ${timeoutSeconds} s, memory ${memoryMb} MB`;

/** A record read back from disk, or null when the line is not one (a torn last line, another format). */
export function parseRecord(line: string): GradeRecord | null {
  let value: Partial<GradeRecord>;
  try {
    value = JSON.parse(line) as Partial<GradeRecord>;
  } catch {
    return null;
  }
  if (value?.format !== RECORD_FORMAT || typeof value.key !== "string" || typeof value.state !== "string" || !Array.isArray(value.tests)) return null;
  // A learner name becomes a folder name when results.json is written: never a path.
  if (typeof value.learner !== "string" || !LEARNER_NAME.test(value.learner)) return null;
  return value as GradeRecord;
}
