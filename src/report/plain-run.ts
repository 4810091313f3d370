import type { FileError, RunResult, TestOutcome } from "../../checker/model/result.js";
import { outputTextLines, reportText } from "../screen/results-window.js";
import { SCREEN_MESSAGES } from "../screen/screen-messages.js";
import { bugToTell, FAILURE_WORDS, failureWords, firstLines, insteadLabel } from "./failure-words.js";
import type { TypeErrorReport } from "../typecheck/type-checker.js";

const indent = (text: string, pad = "        ") =>
  text
    .split("\n")
    .map((line) => pad + line)
    .join("\n");

/** How many lines of one test's output, or of its report, `lab check` prints; the rest are counted (--json has them all). */
export const OUTPUT_LINES_PRINTED = 40;
/** How many characters of one printed line `lab check` prints: a whole prompt on one line would fill a screen. */
export const OUTPUT_LINE_CHARS = 400;

export const REPORT_MESSAGES = {
  printed: "printed:",
  report: SCREEN_MESSAGES.reportLabel,
  noTestRan: (kind: FileError["kind"]) =>
    `No test ran: ${kind === "syntax" ? "your file has a syntax error" : kind === "forged" ? "the run was stopped" : "your file did not load"}.`,
  guards: (id: string, summary: string) => `this test guards against the ${id} bug: ${summary}`,
  lineCut: (n: number) => `… ${n.toLocaleString("en-US")} more characters on this line: lab check --json has all of it`,
} as const;

/** The closing line CI and people read: "X passed, Y failed", or why no test ran at all. */
export const closingLine = (result: Pick<RunResult, "passed" | "failed" | "total" | "error">) =>
  result.total === 0 && result.error ? REPORT_MESSAGES.noTestRan(result.error.kind) : `${result.passed} passed, ${result.failed} failed`;

/** A file error as the screen shows it: the sentence, then the code line with a caret under the column. */
export function describeFileError(error: FileError): string[] {
  const lines = [error.message];
  if (error.codeLine !== undefined && error.line !== undefined) {
    const gutter = String(error.line);
    lines.push(`  ${gutter} | ${error.codeLine}`);
    if (error.column !== undefined) lines.push(`  ${" ".repeat(gutter.length)} | ${" ".repeat(Math.max(0, error.column - 1))}^`);
  }
  return lines;
}

/** Under the test's sentence (its FAIL row): the assertion's own sentence, then what it found instead. */
function failureSaid(message: string): string[] {
  const words = failureWords(message);
  if (words.other !== null) return [indent(firstLines(words.other, 6))];
  const label = (name: string, text: string, count: number) =>
    indent(
      `${name.toLowerCase()} ${firstLines(text, count)
        .split("\n")
        .join(`\n${" ".repeat(name.length + 1)}`)}`,
    );
  const instead = words.instead === null ? null : insteadLabel(words.instead);
  return [
    ...(words.checked !== null ? [label(FAILURE_WORDS.checked, words.checked, 2)] : []),
    ...(instead !== null ? [label(instead.label, instead.text, 5)] : []),
  ];
}

/** Printed text under its label and a bar; past OUTPUT_LINES_PRINTED lines, or OUTPUT_LINE_CHARS characters on a line, the rest are counted. */
function printedLines(label: string, text: string): string[] {
  const all = outputTextLines(text);
  const cut = all.length > OUTPUT_LINES_PRINTED ? [SCREEN_MESSAGES.outputCut(all.length - OUTPUT_LINES_PRINTED)] : [];
  const clipped = all
    .slice(0, OUTPUT_LINES_PRINTED)
    .map((line) => (line.length > OUTPUT_LINE_CHARS ? line.slice(0, OUTPUT_LINE_CHARS) + REPORT_MESSAGES.lineCut(line.length - OUTPUT_LINE_CHARS) : line));
  return [indent(label), ...[...clipped, ...cut].map((line) => indent(`│ ${line}`))];
}

/**
 * One row per test; a failing row is followed by what went wrong and the bug it points at. Any
 * row is followed by what the learner's code printed, then by what the test itself printed
 * (its report: the tables the lessons promise, on passing rows too).
 */
export function describeTest(test: TestOutcome): string[] {
  const label = test.state === "passed" ? "PASS" : test.state === "skipped" ? "SKIP" : "FAIL";
  const lines = [`  ${label}  ${test.name}${test.state === "passed" ? ` (${Math.round(test.ms)} ms)` : ""}`];
  if (test.state === "failed" || test.state === "not-run") {
    if (test.failure) lines.push(...failureSaid(test.failure.message));
    if (test.failure?.expected !== undefined) lines.push(indent(`expected: ${test.failure.expected.split("\n").slice(0, 8).join("\n          ")}`));
    if (test.failure?.received !== undefined) lines.push(indent(`received: ${test.failure.received.split("\n").slice(0, 8).join("\n          ")}`));
    const bug = bugToTell(test);
    if (bug) lines.push(indent(REPORT_MESSAGES.guards(bug.id, bug.summary)));
  }
  if (test.state === "skipped" && test.note) lines.push(indent(test.note));
  if (test.output) lines.push(...printedLines(REPORT_MESSAGES.printed, test.output));
  if (test.report) lines.push(...printedLines(REPORT_MESSAGES.report, reportText(test.report)));
  return lines;
}

export function describeRun(result: RunResult): string[] {
  const lines = result.tests.flatMap(describeTest);
  if (result.error) lines.push("", ...describeFileError(result.error));
  lines.push("", closingLine(result));
  return lines;
}

/** Every type error of the file, as a warning: the tests ran regardless. Nothing when there are none. */
export function describeTypeErrors(errors: TypeErrorReport[] | null): string[] {
  if (!errors || errors.length === 0) return [];
  return [SCREEN_MESSAGES.typeErrors(errors.length), ...errors.map((e) => `  ${SCREEN_MESSAGES.typeError(e.line, e.column, e.message)}`), ""];
}
