/** The class report as Markdown, for a README, an issue or an LMS page. */
import type { ClassReport } from "../report.js";
import {
  COPY_HEADERS,
  copyRows,
  drillsCell,
  exerciseCells,
  failedCells,
  metaLine,
  misconceptionCells,
  msCell,
  NONE,
  PEEK_HEADERS,
  peekRows,
  passedCell,
  ratio,
  REPORT_NOTES,
  unsubmittedLine,
} from "./cells.js";

const escapeCell = (text: string) =>
  text
    .replace(/[\r\n\t]+/g, " ")
    .trim()
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/([*_`<>[\]])/g, "\\$1");

function table(headers: string[], rows: string[][], right: number[] = []): string[] {
  return [
    `| ${headers.join(" | ")} |`,
    `| ${headers.map((_, i) => (right.includes(i) ? "---:" : "---")).join(" | ")} |`,
    ...rows.map((row) => `| ${row.map(escapeCell).join(" | ")} |`),
  ];
}

const section = (heading: string, lines: string[]) => [`## ${heading}`, "", ...lines, ""];

export function renderMarkdown(report: ClassReport): string {
  const shown = report.rows.filter((r) => !report.unsubmitted.includes(r.exercise));
  const rows = table(
    ["learner", "exercise", "passed", "state", "first failing test", "why", "ms"],
    shown.map((r) => [r.learner, r.exercise, passedCell(r), r.state, r.firstFailingTest ?? NONE, r.detail ?? NONE, msCell(r.ms)]),
    [6],
  );
  const learners = table(
    ["learner", "exercises passed", "tests passed", "best drills"],
    report.learners.map((l) => [l.learner, ratio(l.exercisesPassed, l.exercises), ratio(l.testsPassed, l.testsTotal), drillsCell(l)]),
  );
  const exercises = table(["exercise", "passed", "rate", "fail", "error", "timeout", "missing"], report.exercises.map(exerciseCells), [2]);
  const orNote = (headers: string[], cells: string[][], note: string, right: number[] = []) => (cells.length === 0 ? [note] : table(headers, cells, right));
  const map = orNote(["learners", "exercise", "bug", "what it breaks"], report.misconceptions.map(misconceptionCells), REPORT_NOTES.noMap, [0]);
  const failed = orNote(["learners", "exercise", "test"], report.mostFailed.map(failedCells), "No test failed.", [0]);
  const copies = orNote(COPY_HEADERS, copyRows(report), REPORT_NOTES.noCopies);
  const peeks = orNote(PEEK_HEADERS, peekRows(report), REPORT_NOTES.noPeeks);
  return [
    `# ${report.title}`,
    "",
    metaLine(report),
    "",
    ...section("Results", report.unsubmitted.length === 0 ? rows : [...rows, "", unsubmittedLine(report.unsubmitted)]),
    ...section("Learners", learners),
    ...section("Exercises", exercises),
    ...section("Misconceptions", map),
    ...section("Most failed tests", failed),
    ...section("Copies (flags only: no score changes)", copies),
    ...section("Peeks", peeks),
  ].join("\n");
}
