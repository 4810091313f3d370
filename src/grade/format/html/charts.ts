/**
 * The report's charts as inline SVG, drawn by Observable Plot on a DOM made by linkedom: no
 * browser, no network, the same markup for the same data.
 */
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import type { Misconception } from "../../misconceptions.js";
import type { DrillPoint, PassRate, ScoreBin } from "./data.js";

const { document } = parseHTML("<!doctype html><html><body></body></html>");

/** Plot's options with the server-side document; its types are the browser's, which the lab does not load. */
type Options = Omit<Plot.PlotOptions, "document">;
const svg = (options: Options): string => (Plot.plot({ ...options, document } as Plot.PlotOptions) as unknown as { outerHTML: string }).outerHTML;

const GREEN = "#2f7d4f";
const AMBER = "#b7791f";
const BLUE = "#2b6cb0";
/** Wide enough for two charts side by side in a 1280-pixel window. */
export const CHART_WIDTH = 540;

export function passRateChart(rates: PassRate[]): string {
  return svg({
    width: CHART_WIDTH,
    height: 50 + 26 * rates.length,
    marginLeft: 150,
    marginRight: 50,
    x: { domain: [0, 100], label: "learners passing every test (%)", grid: true },
    y: { domain: rates.map((r) => r.exercise), label: null },
    marks: [
      Plot.barX(rates, { x: (r: PassRate) => r.rate * 100, y: "exercise", fill: GREEN }),
      Plot.text(rates, { x: (r: PassRate) => r.rate * 100, y: "exercise", text: (r: PassRate) => `${r.passed}/${r.learners}`, dx: 4, textAnchor: "start" }),
      Plot.ruleX([0]),
    ],
  });
}

export function scoreChart(bins: ScoreBin[]): string {
  return svg({
    width: CHART_WIDTH,
    height: 260,
    x: { domain: [0, 100], label: "score (% of the points)" },
    y: { label: "learners", grid: true, ticks: Math.min(10, Math.max(1, ...bins.map((b) => b.learners))), tickFormat: "d" },
    marks: [Plot.rectY(bins, { x1: "from", x2: "to", y: "learners", fill: BLUE, insetLeft: 1, insetRight: 1 }), Plot.ruleY([0])],
  });
}

/** How many bugs the map's chart shows; the table below it lists every one. */
export const MAP_CHART_BUGS = 12;

export function misconceptionChart(map: Misconception[]): string {
  const top = map.slice(0, MAP_CHART_BUGS).map((m) => ({ label: `${m.exercise.slice(0, 2)} ${m.bug}`, learners: m.learners.length }));
  return svg({
    width: CHART_WIDTH * 2,
    height: 50 + 24 * top.length,
    marginLeft: 260,
    marginRight: 40,
    x: { label: "learners whose failures point at the bug", grid: true, ticks: Math.min(10, top[0]?.learners ?? 1), tickFormat: "d" },
    y: { domain: top.map((t) => t.label), label: null },
    marks: [
      Plot.barX(top, { x: "learners", y: "label", fill: AMBER }),
      Plot.text(top, { x: "learners", y: "label", text: (t: { learners: number }) => String(t.learners), dx: 4, textAnchor: "start" }),
      Plot.ruleX([0]),
    ],
  });
}

export function drillChart(points: DrillPoint[], exercises: string[]): string {
  return svg({
    width: CHART_WIDTH * 2,
    height: 50 + 30 * exercises.length,
    marginLeft: 150,
    x: { label: "best drill time (minutes)", grid: true },
    y: { domain: exercises, label: null },
    marks: [Plot.dot(points, { x: (p: DrillPoint) => p.seconds / 60, y: "exercise", stroke: BLUE, r: 4 }), Plot.ruleX([0])],
  });
}
