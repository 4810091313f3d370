import type { Format } from "../options.js";
import type { ClassReport } from "../report.js";
import { renderCsv } from "./csv.js";
import { renderGradescope } from "./gradescope.js";
import { renderJunit } from "./junit.js";
import { renderMarkdown } from "./md.js";
import { renderTable } from "./table.js";

/** The report as JSON: everything but the raw records, which results.jsonl already holds. */
export const renderJson = ({ records: _records, ...report }: ClassReport) => `${JSON.stringify(report, null, 2)}\n`;

/** The report in the asked-for format; every format is a function of the report alone. */
export async function render(report: ClassReport, format: Format): Promise<string> {
  if (format === "json") return renderJson(report);
  if (format === "csv") return renderCsv(report);
  if (format === "md") return renderMarkdown(report);
  if (format === "junit") return renderJunit(report);
  if (format === "gradescope") return renderGradescope(report);
  // The charts' libraries load only when a page is asked for.
  if (format === "html") return (await import("./html/page.js")).renderHtml(report);
  return renderTable(report);
}
