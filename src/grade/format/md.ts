/** The class report as Markdown, for a README, an issue or an LMS page. */
import { copyText } from "../copies/flags.js";
import type { ClassReport } from "../report.js";
import { drillsCell, exerciseCells, failedCells, metaLine, misconceptionCells, msCell, NONE, passedCell, peeksText, ratio, unsubmittedLine } from "./cells.js";

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
  const map =
    report.misconceptions.length === 0
      ? ["No failing test pointed at a named bug."]
      : table(["learners", "exercise", "bug", "what it breaks"], report.misconceptions.map(misconceptionCells), [0]);
  const failed = report.mostFailed.length === 0 ? ["No test failed."] : table(["learners", "exercise", "test"], report.mostFailed.map(failedCells), [0]);
  const copies =
    report.copies.length === 0
      ? ["No file matches a reference, an alternative or another learner's file."]
      : table(
          ["learner", "exercise", "matches"],
          report.copies.map((c) => [c.learner, c.exercise, copyText(c.matches)]),
        );
  const peeks =
    report.peeks.length === 0
      ? ["No learner's .lab/ records a hint, a solution or a peeked drill."]
      : table(
          ["learner", "exercise", "opened"],
          report.peeks.map((p) => [p.learner, p.exercise, peeksText(p.peeks)]),
        );
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
