/** One CSV line per learner × exercise (RFC 4180), for a spreadsheet; totals are a pivot away. */
import type { ClassSummary } from "../summary.js";

const HEADER = ["learner", "exercise", "number", "state", "passed", "total", "first_failing_test", "detail", "ms", "best_drill_seconds", "peeks"];

/** Quotes when needed; a learner-made text that starts like a formula is defused with a leading '. */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function renderCsv(summary: ClassSummary): string {
  const lines = summary.rows.map((r) =>
    [r.learner, r.exercise, r.number, r.state, r.passed, r.total, r.firstFailingTest, r.detail, r.ms, r.bestDrillSeconds, r.peeks.join(" ") || null]
      .map(csvCell)
      .join(","),
  );
  return [HEADER.join(","), ...lines].map((line) => `${line}\r\n`).join("");
}
