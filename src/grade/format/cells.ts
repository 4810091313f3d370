/** How the text formats spell the values of a summary. */
import { formatSeconds } from "../../progress/drills.js";
import { copyText } from "../copies/flags.js";
import type { Peeks } from "../learner-notes.js";
import type { Misconception } from "../misconceptions.js";
import type { ClassReport } from "../report.js";
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

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "3 hints, the solution before passing, 1 drill peeked (hint, tier 1)" */
export function peeksText(peeks: Peeks): string {
  const parts: string[] = [];
  if (peeks.hintsShown > 0) parts.push(plural(peeks.hintsShown, "hint", "hints"));
  if (peeks.solution) parts.push(`the solution ${peeks.solution}`);
  if (peeks.tier3BeforePassing) parts.push("tier 3 before passing");
  if (peeks.drills.length > 0) {
    const opened = peeks.drills.map((d) => d.join(", ")).filter((d) => d !== "");
    parts.push(`${plural(peeks.drills.length, "drill", "drills")} peeked${opened.length > 0 ? ` (${opened.join("; ")})` : ""}`);
  }
  return parts.join(", ");
}

/** "2026-03-01 10:00 UTC" */
export const dateCell = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** The line under every report's title: who, what, when, with which lab. */
export const metaLine = (report: ClassReport) =>
  `${plural(report.learners.length, "learner", "learners")} · ${plural(report.exercises.length, "exercise", "exercises")} · ${dateCell(report.date)} · lab ${report.labVersion}`;

/** The sentence for exercises nobody handed in. */
export const unsubmittedLine = (exercises: string[]) =>
  `Nobody handed in ${exercises.join(", ")}: no row is shown for ${exercises.length === 1 ? "it" : "them"}.`;

export const misconceptionCells = (m: Misconception) => [String(m.learners.length), m.exercise, m.bug, m.sentence ?? NONE];

/** What a report says where a part of it is empty; the same words in every format. */
export const REPORT_NOTES = {
  noMap: "No failing test pointed at a named bug.",
  noCopies: "No file matches a reference, an alternative or another learner's file.",
  noPeeks: "No learner's .lab/ records a hint, a solution or a peeked drill.",
  copiesTitle: "copies (flags only: no score changes)",
} as const;

export const COPY_HEADERS = ["learner", "exercise", "matches"];
export const PEEK_HEADERS = ["learner", "exercise", "opened"];

/** One row per flagged file: learner, exercise, what it matches. */
export const copyRows = (report: ClassReport) => report.copies.map((c) => [c.learner, c.exercise, copyText(c.matches)]);

/** One row per learner × exercise with something opened: learner, exercise, what. */
export const peekRows = (report: ClassReport) => report.peeks.map((p) => [p.learner, p.exercise, peeksText(p.peeks)]);
