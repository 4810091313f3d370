/**
 * The class report as one self-contained HTML page: no script, no font, no request of any
 * kind; the charts are inline SVG. Laid out for a laptop (1280 pixels wide, no sideways
 * scrolling) and for paper.
 */
import type { ClassReport } from "../../report.js";
import { metaLine, unsubmittedLine } from "../cells.js";
import { drillChart, misconceptionChart, passRateChart, scoreChart } from "./charts.js";
import { drillPoints, drillSummaries, gridRows, passRates, scoreBins } from "./data.js";
import { copiesSection, drillSection, failuresSection, gridSection, mapSection, peeksSection } from "./sections.js";
import { esc, STYLE } from "./style.js";

export const HTML_HEADINGS = {
  standing: "Where the class stands",
  map: "Misconception map",
  grid: "Class grid",
  drills: "Drills",
  copies: "Copies (flags only: no score changes)",
  peeks: "Peeks",
  failures: "Failures",
} as const;

const figure = (caption: string, svg: string) => `<figure><figcaption>${esc(caption)}</figcaption>${svg}</figure>`;

export function renderHtml(report: ClassReport): string {
  const drills = drillSummaries(report);
  const drilled = drills.map((d) => d.exercise);
  const body = [
    `<header><h1>${esc(report.title)}</h1><p class="meta">${esc(metaLine(report))}</p></header>`,
    `<section id="standing"><h2>${HTML_HEADINGS.standing}</h2><div class="charts">`,
    figure("Pass rate per exercise", passRateChart(passRates(report))),
    figure("Distribution of scores", scoreChart(scoreBins(report))),
    "</div>",
    report.unsubmitted.length === 0 ? "" : `<p class="unsubmitted">${esc(unsubmittedLine(report.unsubmitted))}</p>`,
    "</section>",
    gridSection(HTML_HEADINGS.grid, gridRows(report)),
    mapSection(HTML_HEADINGS.map, report, report.misconceptions.length === 0 ? "" : figure("The most common bugs", misconceptionChart(report.misconceptions))),
    drillSection(HTML_HEADINGS.drills, drills, drills.length === 0 ? "" : figure("Each learner's best drill time", drillChart(drillPoints(report), drilled))),
    copiesSection(HTML_HEADINGS.copies, report),
    peeksSection(HTML_HEADINGS.peeks, report),
    failuresSection(HTML_HEADINGS.failures, report),
  ];
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(report.title)} · ${esc(report.date.slice(0, 10))}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body><main>",
    ...body.filter((part) => part !== ""),
    "</main></body>",
    "</html>",
    "",
  ].join("\n");
}
