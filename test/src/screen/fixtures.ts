import type { FileError, RunResult, TestOutcome } from "../../../checker/model/result.js";
import { initialScreenState, type ScreenState } from "../../../src/screen/screen-state.js";

/** Plain data for screen tests: an exercise, test outcomes and run results. */
export const EXERCISE = {
  number: 1,
  title: "The tool-calling loop",
  hints: ["Start from one user message.", "Check stop_reason first.", "Wrap each dispatch in try/catch."],
  tiers: [1, 3],
};

export const NAMES = ["adds two numbers (off-by-one bug)", "asks the model to echo the sum (no-echo bug)"];

export const passed = (name: string, ms = 3): TestOutcome => ({ name, state: "passed", ms, failure: null, bug: null });

export const failed = (name: string): TestOutcome => ({
  name,
  state: "failed",
  ms: 2,
  failure: { message: "expected 6 to be 5", expected: "5", received: "6" },
  bug: { id: "off-by-one", summary: "Adds one too many, so every sum is wrong." },
});

export function result(tests: TestOutcome[], error: FileError | null = null, status?: RunResult["status"]): RunResult {
  const p = tests.filter((t) => t.state === "passed").length;
  const f = tests.length - p;
  return {
    exercise: "01-adder",
    file: "/ws/01-adder.ts",
    status: status ?? (f === 0 && tests.length > 0 && !error ? "passed" : "failed"),
    tests,
    passed: p,
    failed: f,
    total: tests.length,
    error,
    ms: 84.4,
  };
}

export const SYNTAX: FileError = {
  kind: "syntax",
  message: "Syntax error in /ws/01-adder.ts:2:14: Unexpected token",
  file: "/ws/01-adder.ts",
  line: 2,
  column: 14,
  codeLine: "  return a + ;",
};

export const TIMEOUT: FileError = {
  kind: "timeout",
  message: "The run did not finish in 10 s: look for a loop that never ends or a promise that never settles.",
};

export const fresh = (over: Partial<ScreenState> = {}): ScreenState => ({
  ...initialScreenState({ exercise: EXERCISE, file: "/ws/01-adder.ts", next: { number: 2, title: "Retry with backoff" } }),
  ...over,
});
