/** The class table as Markdown, for a README or an issue. */
import type { ClassSummary } from "../summary.js";
import { drillsCell, exerciseCells, failedCells, msCell, NONE, passedCell, peeksCell, ratio } from "./cells.js";

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

export function renderMarkdown(summary: ClassSummary): string {
  const rows = table(
    ["learner", "exercise", "passed", "state", "first failing test", "why", "ms"],
    summary.rows.map((r) => [r.learner, r.exercise, passedCell(r), r.state, r.firstFailingTest ?? NONE, r.detail ?? NONE, msCell(r.ms)]),
    [6],
  );
  const learners = table(
    ["learner", "exercises passed", "tests passed", "best drills", "answer opened before passing"],
    summary.learners.map((l) => [l.learner, ratio(l.exercisesPassed, l.exercises), ratio(l.testsPassed, l.testsTotal), drillsCell(l), peeksCell(l)]),
  );
  const exercises = table(["exercise", "passed", "rate", "fail", "error", "timeout", "missing"], summary.exercises.map(exerciseCells), [2]);
  const failed = summary.mostFailed.length === 0 ? ["No test failed."] : table(["learners", "exercise", "test"], summary.mostFailed.map(failedCells), [0]);
  return [
    "## Results",
    "",
    ...rows,
    "",
    "## Learners",
    "",
    ...learners,
    "",
    "## Exercises",
    "",
    ...exercises,
    "",
    "## Most failed tests",
    "",
    ...failed,
    "",
  ].join("\n");
}
