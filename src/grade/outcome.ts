/** Turns the runner's RunResult for a learner's copied file into a row's state, reason and tests. */
import { MEMORY_GUARD_MARK } from "../../checker/run/stopping/outside-watcher-link.js";
import type { RunResult, TestOutcome } from "../../checker/model/result.js";
import { GRADE_REASONS } from "./messages.js";
import type { GradeState, TestEntry } from "./record.js";

/** What Node prints when a worker's JavaScript heap hits --max-old-space-size. */
const HEAP_EXHAUSTED = "JavaScript heap out of memory";
const ACCESS_DENIED = "Access to this API has been restricted";

export interface RunFacts {
  result: RunResult;
  /** The last of what the worker wrote to stdout and stderr; read for why it died, never stored. */
  outputTail: string;
  memoryMb: number;
  /** Rewrites scratch paths in a message into the paths a reader knows. */
  clean: (text: string) => string;
}

export interface RunOutcome {
  state: GradeState;
  passed: number;
  total: number;
  reason: string | null;
  firstFailure: { test: string; message: string } | null;
  tests: TestEntry[];
  ms: number;
}

const firstLine = (text: string) =>
  text
    .split("\n")
    .find((line) => line.trim() !== "")
    ?.trim() ?? "";
const isFailure = (test: TestOutcome) => test.state === "failed" || test.state === "not-run";

/** The scripted provider's message and request ids, random on every request, as they appear in an error's text. */
const RANDOM_IDS = /\b(msg|req)_01[0-9A-Za-z]{22}\b/g;
/** One id for all of them: the same file graded twice (on two machines of a shard matrix, say) says the same thing. */
export const steadyIds = (text: string) => text.replace(RANDOM_IDS, "$1_01…");

function stateOf(result: RunResult): GradeState {
  if (result.status === "timeout") return "timeout";
  if (result.status === "passed") return "pass";
  if (result.status === "error" || result.error?.kind === "crash" || result.error?.kind === "forged" || result.total === 0) return "error";
  return "fail";
}

function reasonOf(facts: RunFacts, state: GradeState): string | null {
  const { result } = facts;
  if (result.error?.kind === "crash") {
    const outOfMemory = facts.outputTail.includes(MEMORY_GUARD_MARK) || facts.outputTail.includes(HEAP_EXHAUSTED);
    return outOfMemory ? GRADE_REASONS.outOfMemory(facts.memoryMb) : GRADE_REASONS.crashed;
  }
  if (result.error) {
    const message = facts.clean(result.error.message);
    return message.includes(ACCESS_DENIED) ? `${message} — ${GRADE_REASONS.sandbox}.` : message;
  }
  return state === "error" ? GRADE_REASONS.noTests : null;
}

function entryOf(test: TestOutcome, clean: (text: string) => string): TestEntry {
  if (test.state === "passed") return { name: test.name, status: "pass", message: null };
  const message = test.failure ? clean(test.failure.message) : null;
  return { name: test.name, status: test.state === "failed" ? "fail" : "error", message };
}

export function outcomeOf(facts: RunFacts): RunOutcome {
  const { result } = facts;
  const clean = (text: string) => steadyIds(facts.clean(text));
  const state = stateOf(result);
  const failing = result.tests.find(isFailure);
  return {
    state,
    passed: result.passed,
    total: result.total,
    reason: reasonOf({ ...facts, clean }, state),
    firstFailure: failing ? { test: failing.name, message: firstLine(clean(failing.failure?.message ?? "")) } : null,
    tests: result.tests.filter((t) => t.state !== "skipped").map((t) => entryOf(t, clean)),
    ms: Math.round(result.ms),
  };
}
