/** What a run returns and what it reports while it runs: the one interface the screen, `lab check` and `lab grade` consume. */

export type TestState = "passed" | "failed" | "skipped" | "not-run";

export interface Failure {
  message: string;
  expected?: string;
  received?: string;
  /**
   * Whether this failure is the named bug's signature, so the bug's sentence applies. A test
   * may mark which of its assertions are the signature (an assertion sentence ending in
   * "(<id> bug)"); then a failure of any other assertion is false. Absent: the test has no bug.
   */
  bugSignature?: boolean;
}

export interface TestOutcome {
  name: string;
  state: TestState;
  ms: number;
  failure: Failure | null;
  /** The named bug this test points at, from its "(id bug)" suffix and exercise.json. */
  bug: { id: string; summary: string } | null;
  /** Why a skipped test was skipped, when it said (a live run names what only the scripted provider can stage). */
  note?: string;
  /** What the learner's code printed during this test (stdout and stderr, in order), when it printed anything. */
  output?: string;
  /**
   * What the hidden test itself printed during this test (console.log and console.info: the
   * tables and lines its lesson promises), when it printed anything; kept whether the test
   * passed or failed. The test wrote it, not the learner's code (what that printed is `output`).
   */
  report?: string;
}

/** "forged": the worker's channel carried what its tests never sent (checker/run/workers/channel.ts). */
export type FileErrorKind = "syntax" | "import" | "timeout" | "crash" | "unhandled" | "forged";

export interface FileError {
  kind: FileErrorKind;
  /** One sentence, ready to print. */
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** The source line the error points at, when known. */
  codeLine?: string;
}

export type RunStatus = "passed" | "failed" | "error" | "timeout";

export interface RunResult {
  exercise: string;
  file: string;
  status: RunStatus;
  tests: TestOutcome[];
  passed: number;
  failed: number;
  total: number;
  error: FileError | null;
  ms: number;
}

export type RunEvent =
  | { type: "run-started"; exercise: string; file: string }
  | { type: "tests-collected"; names: string[] }
  | { type: "test-started"; name: string }
  | { type: "test-finished"; test: TestOutcome }
  | { type: "file-error"; error: FileError }
  | { type: "run-finished"; result: RunResult };

export type RunListener = (event: RunEvent) => void;

export const RUN_MESSAGES = {
  timeout: (seconds: number) => `The run did not finish in ${seconds} s: look for a loop that never ends or a promise that never settles.`,
  notRun: (seconds: number) => `Not run: the run was stopped after ${seconds} s.`,
  syntax: (file: string, line: number, column: number, detail: string) => `Syntax error in ${file}:${line}:${column}: ${detail}`,
  importFailed: (detail: string) => `Your file threw while it was being loaded: ${detail}`,
  crashed: (detail: string) => `The test process crashed: ${detail}`,
  died: (how: string) => `The test process ended before the tests finished (${how}).`,
  missingExport: (name: string) => `Your file does not export "${name}".`,
} as const;

export function summarise(exercise: string, file: string, tests: TestOutcome[], error: FileError | null, ms: number): RunResult {
  const passed = tests.filter((t) => t.state === "passed").length;
  const failed = tests.filter((t) => t.state === "failed" || t.state === "not-run").length;
  const status: RunStatus =
    error?.kind === "timeout" ? "timeout" : error && tests.length === 0 ? "error" : failed > 0 || error || tests.length === 0 ? "failed" : "passed";
  return { exercise, file, status, tests, passed, failed, total: tests.length, error, ms };
}
