/**
 * JUnit XML, which any CI renders: one <testsuite> per learner × exercise, one <testcase> per
 * hidden test, and for a failing test the bug it points at as the failure's message (the
 * assertion's own text as its body). A pair whose tests could not run is one test case that
 * says why. Copy flags and peeks are the suite's properties.
 */
import { bugOfTest } from "../../../checker/model/exercises.js";
import { copyText } from "../copies/flags.js";
import type { GradeRecord, TestEntry } from "../record.js";
import type { ClassReport } from "../report.js";
import { peeksText } from "./cells.js";

/** Text as XML attribute or element content: markup escaped, characters XML cannot hold dropped. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const attrs = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlText(String(value))}"`)
    .join("");

const firstLine = (text: string | null) => (text ?? "").split("\n").find((l) => l.trim() !== "") ?? "";

interface Case {
  name: string;
  outcome: "pass" | "failure" | "error";
  type?: string;
  message?: string;
  body?: string;
}

function casesOf(record: GradeRecord, bugs: Record<string, string>): Case[] {
  const finishedRun = record.state === "pass" || record.state === "fail";
  const ofTest = (test: TestEntry): Case => {
    if (test.status === "pass") return { name: test.name, outcome: "pass" };
    const bug = bugOfTest(test.name);
    const sentence = bug === null ? null : (bugs[bug] ?? null);
    const message = sentence ?? firstLine(test.message ?? (finishedRun ? null : record.reason));
    return {
      name: test.name,
      outcome: test.status === "fail" ? "failure" : "error",
      type: bug ?? test.status,
      message,
      body: test.message ?? record.reason ?? "",
    };
  };
  if (record.tests.length > 0) return record.tests.map(ofTest);
  const reason = record.reason ?? record.state;
  return [{ name: record.exercise, outcome: record.state === "missing" ? "failure" : "error", type: record.state, message: reason, body: reason }];
}

function testcase(record: GradeRecord, c: Case): string {
  const open = `    <testcase${attrs({ classname: `${record.learner}.${record.exercise}`, name: c.name })}`;
  if (c.outcome === "pass") return `${open}/>`;
  const tag = c.outcome;
  return `${open}>\n      <${tag}${attrs({ type: c.type ?? tag, message: c.message ?? "" })}>${xmlText(c.body ?? "")}</${tag}>\n    </testcase>`;
}

export function renderJunit(report: ClassReport): string {
  const bugs = new Map(report.exerciseNotes.map((e) => [e.exercise, e.bugs]));
  const copies = new Map(report.copies.map((c) => [c.key, copyText(c.matches)]));
  const peeks = new Map(report.peeks.map((p) => [p.key, peeksText(p.peeks)]));
  let tests = 0;
  let failures = 0;
  let errors = 0;
  const suites = report.records.map((record) => {
    const cases = casesOf(record, bugs.get(record.exercise) ?? {});
    const failed = cases.filter((c) => c.outcome === "failure").length;
    const errored = cases.filter((c) => c.outcome === "error").length;
    tests += cases.length;
    failures += failed;
    errors += errored;
    const properties = [
      ["learner", record.learner],
      ["exercise", record.exercise],
      ["file", record.file],
      ["state", record.state],
      ...(copies.has(record.key) ? [["copy of", copies.get(record.key)!]] : []),
      ...(peeks.has(record.key) ? [["peeks", peeks.get(record.key)!]] : []),
    ].map(([name, value]) => `      <property${attrs({ name: name!, value: value! })}/>`);
    const time = ((record.ms ?? 0) / 1000).toFixed(3);
    return [
      `  <testsuite${attrs({ name: record.key, tests: cases.length, failures: failed, errors: errored, skipped: 0, time })}>`,
      "    <properties>",
      ...properties,
      "    </properties>",
      ...cases.map((c) => testcase(record, c)),
      "  </testsuite>",
    ].join("\n");
  });
  const head = attrs({ name: `${report.title} (lab ${report.labVersion})`, tests, failures, errors, timestamp: report.date });
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites${head}>`, ...suites, "</testsuites>", ""].join("\n");
}
