/** The report page's tables: the misconception map, the class grid, drills, copies, peeks and every failure. */
import { bugOfTest } from "../../../../checker/model/exercises.js";
import { formatSeconds } from "../../../progress/drills.js";
import { copyText } from "../../copies/flags.js";
import type { ClassReport } from "../../report.js";
import { NONE, PEEK_HEADERS, peekRows, ratio, REPORT_NOTES } from "../cells.js";
import { anchorOf, copyGroups, type DrillSummary, type GridRow } from "./data.js";
import { esc, shareColour } from "./style.js";

const table = (head: string[], rows: string[], className = "") =>
  `<table${className ? ` class="${className}"` : ""}><thead><tr>${head.join("")}</tr></thead><tbody>\n${rows.join("\n")}\n</tbody></table>`;
const th = (text: string, num = false) => `<th${num ? ' class="num"' : ""}>${esc(text)}</th>`;
const td = (text: string, num = false) => `<td${num ? ' class="num"' : ""}>${esc(text)}</td>`;
/** A cell that stays on one line: a name, an exercise, a bug id. */
const word = (text: string) => `<td class="word">${esc(text)}</td>`;
const section = (id: string, heading: string, parts: string[]) => [`<section id="${id}"><h2>${esc(heading)}</h2>`, ...parts, "</section>"].join("\n");

export const HTML_NOTES = {
  mapIntro: "Every failing hidden test names the bug it catches; each bug counts the learners whose failures point at it, most common first.",
  noMap: REPORT_NOTES.noMap,
  gridIntro: "Each cell is the share of the exercise's hidden tests a learner's file passes; a cell that did not pass links to its failures.",
  noDrills: "No learner's .lab/drills.jsonl holds a drill for these exercises.",
  noCopies: REPORT_NOTES.noCopies,
  copiesIntro: "Files that are the same program once comments, layout and their own names are set aside, one row per program. Flags inform; no score changes.",
  eachOther: "each other",
  noPeeks: REPORT_NOTES.noPeeks,
  noFailures: "Every learner passed every exercise they handed in.",
} as const;

export function mapSection(heading: string, report: ClassReport, chart: string): string {
  if (report.misconceptions.length === 0) return section("map", heading, [`<p class="note">${HTML_NOTES.noMap}</p>`]);
  const most = report.misconceptions[0]!.learners.length;
  const rows = report.misconceptions.map((m) => {
    const width = Math.round((m.learners.length / most) * 80);
    const who = `<details><summary>who</summary>${esc(m.learners.join(", "))}</details>`;
    return `<tr><td class="num"><span class="bar" style="width:${width}px"></span>${m.learners.length}</td>${word(m.exercise)}${word(m.bug)}${td(m.sentence ?? NONE)}<td class="word">${who}</td></tr>`;
  });
  return section("map", heading, [
    `<p class="note">${HTML_NOTES.mapIntro}</p>`,
    chart,
    table([th("learners", true), th("exercise"), th("bug"), th("what it breaks"), th("who")], rows, "map"),
  ]);
}

export function gridSection(heading: string, rows: GridRow[]): string {
  const exercises = rows[0]?.cells.map((c) => c.exercise) ?? [];
  const head = [`<th class="learner">learner</th>`, ...exercises.map((e) => `<th title="${esc(e)}">${esc(e.slice(0, 2))}</th>`)];
  const body = rows.map((row) => {
    const cells = row.cells.map((c) => {
      const label = c.state === "missing" ? NONE : c.total === 0 ? c.state : ratio(c.passed, c.total);
      const title = `${c.learner} · ${c.exercise}: ${c.state}${c.total > 0 ? ` ${ratio(c.passed, c.total)}` : ""}`;
      const inner = c.anchor ? `<a href="#${c.anchor}">${esc(label)}</a>` : `<span>${esc(label)}</span>`;
      const style = c.share === null ? "" : ` style="background:${shareColour(c.share)}"`;
      const kind = c.state === "missing" ? " none" : c.share === null ? " broken" : "";
      return `<td class="cell${kind}" title="${esc(title)}"${style}>${inner}</td>`;
    });
    return `<tr><td class="learner" title="${esc(row.learner)}">${esc(row.learner)}</td>${cells.join("")}</tr>`;
  });
  const legend = `<p class="legend"><span style="background:${shareColour(1)}">all pass</span><span style="background:${shareColour(0.5)}">half</span><span style="background:${shareColour(0)}">none</span><span style="background:var(--broken)">did not run</span><span style="background:var(--none)">no file</span></p>`;
  return section("grid", heading, [`<p class="note">${HTML_NOTES.gridIntro}</p>`, legend, table(head, body, "grid")]);
}

const time = (seconds: number | null) => (seconds === null ? NONE : formatSeconds(seconds));
const lines = (n: number | null) => (n === null ? NONE : String(Math.round(n)));

export function drillSection(heading: string, drills: DrillSummary[], chart: string): string {
  if (drills.length === 0) return section("drills", heading, [`<p class="note">${HTML_NOTES.noDrills}</p>`]);
  const rows = drills.map(
    (d) =>
      `<tr>${td(d.exercise)}${td(String(d.learners), true)}${td(String(d.attempts), true)}${td(time(d.fastestSeconds), true)}${td(time(d.medianSeconds), true)}${td(lines(d.medianLines), true)}${td(String(d.targetLines), true)}</tr>`,
  );
  const head = ["exercise", "learners", "attempts", "fastest", "median best", "median lines", "target lines"].map((h, i) => th(h, i > 0));
  return section("drills", heading, [chart, table(head, rows, "drills")]);
}

export function copiesSection(heading: string, report: ClassReport): string {
  if (report.copies.length === 0) return section("copies", heading, [`<p class="note">${HTML_NOTES.noCopies}</p>`]);
  const rows = copyGroups(report).map(
    (g) => `<tr>${word(g.exercise)}${td(g.known.length === 0 ? HTML_NOTES.eachOther : copyText(g.known))}${td(g.learners.join(", "))}</tr>`,
  );
  return section("copies", heading, [
    `<p class="note">${HTML_NOTES.copiesIntro}</p>`,
    table([th("exercise"), th("the same program as"), th("learners")], rows, "copies"),
  ]);
}

export function peeksSection(heading: string, report: ClassReport): string {
  if (report.peeks.length === 0) return section("peeks", heading, [`<p class="note">${HTML_NOTES.noPeeks}</p>`]);
  const rows = peekRows(report).map(([learner, exercise, opened]) => `<tr>${word(learner!)}${word(exercise!)}${td(opened!)}</tr>`);
  return section("peeks", heading, [
    table(
      PEEK_HEADERS.map((h) => th(h)),
      rows,
      "peeks",
    ),
  ]);
}

export function failuresSection(heading: string, report: ClassReport): string {
  const bugs = new Map(report.exerciseNotes.map((e) => [e.exercise, e.bugs]));
  const failing = report.records.filter((r) => r.state !== "pass" && !report.unsubmitted.includes(r.exercise));
  if (failing.length === 0) return section("failures", heading, [`<p class="note">${HTML_NOTES.noFailures}</p>`]);
  const blocks = failing.map((r) => {
    const title = `${r.learner} · ${r.exercise} · ${r.state}${r.total > 0 ? ` ${ratio(r.passed, r.total)}` : ""}`;
    const tests = r.tests
      .filter((t) => t.status !== "pass")
      .map((t) => {
        const bug = bugOfTest(t.name);
        const sentence = bug === null ? null : (bugs.get(r.exercise)?.[bug] ?? null);
        return `<li>${esc(t.name)}${sentence ? `<br><em>${esc(sentence)}</em>` : ""}${t.message ? `<pre>${esc(t.message)}</pre>` : ""}</li>`;
      });
    const reason = r.reason ? `<pre>${esc(r.reason)}</pre>` : "";
    return `<div class="failure" id="${anchorOf(r.learner, r.exercise)}"><h3>${esc(title)}</h3>${reason}${tests.length > 0 ? `<ul>${tests.join("")}</ul>` : ""}</div>`;
  });
  return section("failures", heading, blocks);
}
