/** The class table as data: one row per learner × exercise, then learner totals, then class totals. */
import type { GradeRecord, GradeState, TestEntry } from "./record.js";

export interface Row {
  learner: string;
  exercise: string;
  number: number;
  state: GradeState;
  passed: number;
  total: number;
  /** The first test that did not pass, when tests ran. */
  firstFailingTest: string | null;
  /** Why that test failed, or why the tests could not run. */
  detail: string | null;
  ms: number | null;
  bestDrillSeconds: number | null;
  /** What the learner opened of the answer before passing: "solution", "tier 3". */
  peeks: string[];
  tests: TestEntry[];
}

export interface LearnerTotal {
  learner: string;
  exercisesPassed: number;
  exercises: number;
  testsPassed: number;
  testsTotal: number;
  drills: { exercise: string; number: number; seconds: number | null }[];
  /** The exercises where the learner opened the answer before passing, and what. */
  peeks: { exercise: string; number: number; peeks: string[] }[];
}

export interface ExerciseTotal {
  exercise: string;
  number: number;
  title: string;
  passed: number;
  learners: number;
  /** passed / learners, from 0 to 1. */
  rate: number;
  states: Record<GradeState, number>;
}

export interface FailedTest {
  exercise: string;
  test: string;
  /** How many learners' runs failed it. */
  learners: number;
}

export interface ClassSummary {
  rows: Row[];
  learners: LearnerTotal[];
  exercises: ExerciseTotal[];
  mostFailed: FailedTest[];
}

/** How many of the most failed tests the summary lists. */
export const MOST_FAILED = 10;

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function rowOf(record: GradeRecord): Row {
  return {
    learner: record.learner,
    exercise: record.exercise,
    number: record.number,
    state: record.state,
    passed: record.passed,
    total: record.total,
    firstFailingTest: record.firstFailure?.test ?? null,
    detail: record.reason ?? record.firstFailure?.message ?? null,
    ms: record.ms,
    bestDrillSeconds: record.bestDrillSeconds,
    peeks: record.peeks ?? [],
    tests: record.tests,
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

function learnerTotal(learner: string, rows: Row[]): LearnerTotal {
  return {
    learner,
    exercisesPassed: rows.filter((r) => r.state === "pass").length,
    exercises: rows.length,
    testsPassed: rows.reduce((sum, r) => sum + r.passed, 0),
    testsTotal: rows.reduce((sum, r) => sum + r.total, 0),
    drills: rows.map((r) => ({ exercise: r.exercise, number: r.number, seconds: r.bestDrillSeconds })),
    peeks: rows.filter((r) => r.peeks.length > 0).map((r) => ({ exercise: r.exercise, number: r.number, peeks: r.peeks })),
  };
}

function exerciseTotal(records: GradeRecord[]): ExerciseTotal {
  const states: Record<GradeState, number> = { pass: 0, fail: 0, error: 0, missing: 0, timeout: 0 };
  for (const record of records) states[record.state]++;
  const first = records[0]!;
  return {
    exercise: first.exercise,
    number: first.number,
    title: first.title,
    passed: states.pass,
    learners: records.length,
    rate: records.length === 0 ? 0 : states.pass / records.length,
    states,
  };
}

function mostFailed(records: GradeRecord[]): FailedTest[] {
  const counts = new Map<string, FailedTest & { number: number }>();
  for (const record of records) {
    for (const test of record.tests) {
      if (test.status === "pass") continue;
      const key = `${record.exercise}\u0000${test.name}`;
      const seen = counts.get(key) ?? { exercise: record.exercise, number: record.number, test: test.name, learners: 0 };
      seen.learners++;
      counts.set(key, seen);
    }
  }
  return [...counts.values()]
    .sort((a, b) => b.learners - a.learners || a.number - b.number || byCodePoint(a.test, b.test))
    .slice(0, MOST_FAILED)
    .map(({ exercise, test, learners }) => ({ exercise, test, learners }));
}

/** The summary of a set of records (one per pair), in a fixed order whatever order they finished in. */
export function summarise(records: GradeRecord[]): ClassSummary {
  const sorted = [...records].sort((a, b) => byCodePoint(a.learner, b.learner) || a.number - b.number);
  const rows = sorted.map(rowOf);
  const learners = [...groupBy(rows, (r) => r.learner)].map(([learner, mine]) => learnerTotal(learner, mine));
  const exercises = [...groupBy(sorted, (r) => r.exercise).values()].map(exerciseTotal).sort((a, b) => a.number - b.number);
  return { rows, learners, exercises, mostFailed: mostFailed(sorted) };
}
