import type { Format } from "../options.js";
import type { ClassSummary } from "../summary.js";
import { renderCsv } from "./csv.js";
import { renderMarkdown } from "./md.js";
import { renderTable } from "./table.js";

/** The summary in the asked-for format; every format is a pure function of the summary. */
export function render(summary: ClassSummary, format: Format): string {
  if (format === "json") return `${JSON.stringify(summary, null, 2)}\n`;
  if (format === "csv") return renderCsv(summary);
  if (format === "md") return renderMarkdown(summary);
  return renderTable(summary);
}
