/** One CSV line per learner × exercise (RFC 4180), for a spreadsheet; totals are a pivot away. */
import { copyText } from "../copies/flags.js";
import type { ClassReport } from "../report.js";
import { peeksText } from "./cells.js";

const HEADER = ["learner", "exercise", "number", "state", "passed", "total", "first_failing_test", "detail", "ms", "best_drill_seconds", "copy_of", "peeks"];

/** Quotes when needed; a learner-made text that starts like a formula is defused with a leading '. */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function renderCsv(report: ClassReport): string {
  const copies = new Map(report.copies.map((c) => [c.key, copyText(c.matches)]));
  const peeks = new Map(report.peeks.map((p) => [p.key, peeksText(p.peeks)]));
  const lines = report.rows.map((r) => {
    const key = `${r.learner}/${r.exercise}`;
    const cells = [r.learner, r.exercise, r.number, r.state, r.passed, r.total, r.firstFailingTest, r.detail, r.ms, r.bestDrillSeconds];
    return [...cells, copies.get(key) ?? null, peeks.get(key) ?? null].map(csvCell).join(",");
  });
  return [HEADER.join(","), ...lines].map((line) => `${line}\r\n`).join("");
}
