import type { FileError, RunResult, TestOutcome } from "../../checker/run/result.js";

const indent = (text: string, pad = "        ") => text.split("\n").map((line) => pad + line).join("\n");

/** The closing line CI and people read: "X passed, Y failed". */
export const closingLine = (result: Pick<RunResult, "passed" | "failed">) => `${result.passed} passed, ${result.failed} failed`;

export function describeFileError(error: FileError): string[] {
  const lines = [error.message];
  if (error.codeLine !== undefined && error.line !== undefined) {
    lines.push(`    ${error.line} | ${error.codeLine.trim()}`);
  }
  return lines;
}

/** One row per test; a failing row is followed by what went wrong and the bug it points at. */
export function describeTest(test: TestOutcome): string[] {
  const label = test.state === "passed" ? "PASS" : test.state === "skipped" ? "SKIP" : "FAIL";
  const lines = [`  ${label}  ${test.name}${test.state === "passed" ? ` (${Math.round(test.ms)} ms)` : ""}`];
  if (test.state === "failed" || test.state === "not-run") {
    if (test.failure) lines.push(indent(test.failure.message.split("\n").slice(0, 6).join("\n")));
    if (test.failure?.expected !== undefined) lines.push(indent(`expected: ${test.failure.expected.split("\n").slice(0, 8).join("\n          ")}`));
    if (test.failure?.received !== undefined) lines.push(indent(`received: ${test.failure.received.split("\n").slice(0, 8).join("\n          ")}`));
    if (test.bug?.summary) lines.push(indent(`why it matters: ${test.bug.summary}`));
  }
  return lines;
}

export function describeRun(result: RunResult): string[] {
  const lines = result.tests.flatMap(describeTest);
  if (result.error) lines.push("", ...describeFileError(result.error));
  lines.push("", closingLine(result));
  return lines;
}
