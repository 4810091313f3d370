/**
 * Points from results, by `grading` in lab.config.ts: each exercise is worth its weight
 * (DEFAULT_WEIGHT unless set), earned test by test with partial credit, or only by passing
 * every test without. A run that did not finish (error, timeout, no file) earns nothing.
 */
import { DEFAULT_WEIGHT, type GradingConfig } from "../config/schema.js";
import type { GradeRecord } from "./record.js";

export const weightOf = (grading: GradingConfig, exercise: number) => grading.weights[String(exercise)] ?? DEFAULT_WEIGHT;

/** Whether the record's tests count for points at all. */
export const finished = (record: Pick<GradeRecord, "state" | "tests">) => (record.state === "pass" || record.state === "fail") && record.tests.length > 0;

/** The points one hidden test is worth in this record, with partial credit. */
export function pointsPerTest(record: GradeRecord, grading: GradingConfig): number {
  return record.tests.length > 0 ? weightOf(grading, record.number) / record.tests.length : 0;
}

/** The points a learner × exercise earned. */
export function pointsOf(record: GradeRecord, grading: GradingConfig): number {
  if (!finished(record)) return 0;
  const weight = weightOf(grading, record.number);
  if (!grading.partialCredit) return record.state === "pass" ? weight : 0;
  return (weight * record.tests.filter((t) => t.status === "pass").length) / record.tests.length;
}

export interface LearnerScore {
  learner: string;
  points: number;
  maxPoints: number;
  /** points / maxPoints, from 0 to 1 (0 when nothing was worth anything). */
  fraction: number;
}

/** Each learner's points over the exercises in their records. */
export function learnerScores(records: GradeRecord[], grading: GradingConfig): LearnerScore[] {
  const byLearner = new Map<string, LearnerScore>();
  for (const record of records) {
    const score = byLearner.get(record.learner) ?? { learner: record.learner, points: 0, maxPoints: 0, fraction: 0 };
    score.points += pointsOf(record, grading);
    score.maxPoints += weightOf(grading, record.number);
    byLearner.set(record.learner, score);
  }
  return [...byLearner.values()].map((s) => ({ ...s, fraction: s.maxPoints === 0 ? 0 : s.points / s.maxPoints }));
}

/** Points shown to a reader: at most two decimals, no trailing zeros. */
export const roundPoints = (points: number) => Math.round(points * 100) / 100;
