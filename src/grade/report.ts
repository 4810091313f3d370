/**
 * Everything a report shows, built once from the records and the lab: the class table
 * (summary.ts), scores, the misconception map, copy flags, peeks, and the exercises nobody
 * handed in. Every format renders this; none of them reads anything else.
 */
import type { Exercise } from "../../checker/model/exercises.js";
import type { GradingConfig } from "../config/schema.js";
import { copyFlags, referencePrints, type CopyFlag } from "./copies/flags.js";
import type { Peeks } from "./learner-notes.js";
import { misconceptions, type Misconception } from "./misconceptions.js";
import type { GradeRecord } from "./record.js";
import { learnerScores, type LearnerScore } from "./scoring.js";
import { summarise, type ClassSummary } from "./summary.js";

/** What the report needs to know about the lab it was graded with. */
export interface ReportLab {
  exercises: Exercise[];
  grading: GradingConfig;
  version: string;
  /** When the report is made (ISO); the one thing two reports of the same results differ in. */
  date: string;
}

export interface PeekNote {
  key: string;
  learner: string;
  exercise: string;
  peeks: Peeks;
}

export interface ExerciseNote {
  exercise: string;
  number: number;
  title: string;
  targetLines: number;
  bugs: Record<string, string>;
}

export interface ClassReport extends ClassSummary {
  title: string;
  date: string;
  labVersion: string;
  grading: GradingConfig;
  /** The graded exercises, in number order. */
  exerciseNotes: ExerciseNote[];
  /** Exercises no learner handed a file in for: shown as one line, not a row per learner. */
  unsubmitted: string[];
  scores: LearnerScore[];
  misconceptions: Misconception[];
  copies: CopyFlag[];
  peeks: PeekNote[];
  /** The records themselves, for the formats that list every hidden test (junit, gradescope, html). */
  records: GradeRecord[];
}

export const REPORT_TITLE = "harness-lab class report";

export function buildReport(records: GradeRecord[], lab: ReportLab): ClassReport {
  const summary = summarise(records);
  const byKey = new Map(records.map((r) => [`${r.learner}/${r.exercise}`, r]));
  const sorted = summary.rows.map((row) => byKey.get(`${row.learner}/${row.exercise}`)!);
  const graded = lab.exercises.filter((e) => summary.exercises.some((t) => t.exercise === e.id));
  const references = new Map(graded.map((e) => [e.id, referencePrints(e)]));
  return {
    title: REPORT_TITLE,
    date: lab.date,
    labVersion: lab.version,
    grading: lab.grading,
    ...summary,
    exerciseNotes: graded.map((e) => ({ exercise: e.id, number: e.number, title: e.title, targetLines: e.targetLines, bugs: e.bugs })),
    unsubmitted: summary.exercises.filter((e) => e.states.missing === e.learners).map((e) => e.exercise),
    scores: learnerScores(sorted, lab.grading),
    misconceptions: misconceptions(sorted, new Map(graded.map((e) => [e.id, e.bugs]))),
    copies: copyFlags(sorted, references),
    peeks: sorted.flatMap((r) => (r.peeks ? [{ key: r.key, learner: r.learner, exercise: r.exercise, peeks: r.peeks }] : [])),
    records: sorted,
  };
}
