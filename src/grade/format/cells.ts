/** How the text formats spell the values of a summary. */
import { formatSeconds } from "../../progress/drills.js";
import type { ExerciseTotal, FailedTest, LearnerTotal, Row } from "../summary.js";

export const NONE = "-";

export const ratio = (passed: number, total: number) => `${passed}/${total}`;
export const percent = (rate: number) => `${Math.round(rate * 100)}%`;
export const msCell = (ms: number | null) => (ms === null ? NONE : String(ms));

/** The tests-passed cell: "-" when nothing ran. */
export const passedCell = (row: Row) => (row.total === 0 ? NONE : ratio(row.passed, row.total));

/** For a failing row the first failing test; for a row that could not run, why. */
export const whyCell = (row: Row) => (row.state === "fail" ? (row.firstFailingTest ?? row.detail ?? NONE) : row.state === "pass" ? NONE : (row.detail ?? NONE));

/** "01 5:05  02 -" */
export const drillsCell = (learner: LearnerTotal) =>
  learner.drills.map((d) => `${String(d.number).padStart(2, "0")} ${d.seconds === null ? NONE : formatSeconds(d.seconds)}`).join(", ");

/** "01 solution, tier 3; 04 tier 3", or "-" when the learner opened no answer before passing. */
export const peeksCell = (learner: LearnerTotal) =>
  learner.peeks.length === 0 ? NONE : learner.peeks.map((p) => `${String(p.number).padStart(2, "0")} ${p.peeks.join(", ")}`).join("; ");

export const failedCells = (test: FailedTest) => [String(test.learners), test.exercise, test.test];

/** One exercise's row: passed, rate, then the count of each way a pair can fall short. */
export const exerciseCells = (e: ExerciseTotal) => [
  e.exercise,
  ratio(e.passed, e.learners),
  percent(e.rate),
  String(e.states.fail),
  String(e.states.error),
  String(e.states.timeout),
  String(e.states.missing),
];
