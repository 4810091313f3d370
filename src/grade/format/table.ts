/** The class table for a terminal: rows, learner totals, class totals, most failed tests. */
import type { ClassSummary } from "../summary.js";
import { drillsCell, exerciseCells, failedCells, msCell, passedCell, peeksCell, ratio, whyCell } from "./cells.js";
import { columns } from "./columns.js";

/** The why column is cut here so a row stays one line; json, csv and md keep the whole text. */
export const WHY_WIDTH = 72;

export function renderTable(summary: ClassSummary): string {
  const rows = columns(
    [
      { header: "learner" },
      { header: "exercise" },
      { header: "passed" },
      { header: "state" },
      { header: "first failing test or reason", max: WHY_WIDTH },
      { header: "ms", align: "right" },
    ],
    summary.rows.map((r) => [r.learner, r.exercise, passedCell(r), r.state, whyCell(r), msCell(r.ms)]),
  );
  const learners = columns(
    [{ header: "learner" }, { header: "exercises passed" }, { header: "tests passed" }, { header: "best drills" }, { header: "answer opened before passing" }],
    summary.learners.map((l) => [l.learner, ratio(l.exercisesPassed, l.exercises), ratio(l.testsPassed, l.testsTotal), drillsCell(l), peeksCell(l)]),
  );
  const exercises = columns(
    [
      { header: "exercise" },
      { header: "passed" },
      { header: "rate", align: "right" },
      { header: "fail" },
      { header: "error" },
      { header: "timeout" },
      { header: "missing" },
    ],
    summary.exercises.map(exerciseCells),
  );
  const failed =
    summary.mostFailed.length === 0
      ? ["(no test failed)"]
      : columns([{ header: "learners", align: "right" }, { header: "exercise" }, { header: "test", max: WHY_WIDTH }], summary.mostFailed.map(failedCells));
  return [...rows, "", ...learners, "", ...exercises, "", "most failed tests", ...failed, ""].join("\n");
}
