import { Box, Text } from "ink";
import type { FileError, RunResult, TestOutcome } from "../../checker/run/result.js";
import { SCREEN_MESSAGES as M } from "./screen-messages.js";
import type { ScreenState } from "./screen-state.js";

const firstLines = (text: string, count: number) => text.split("\n").slice(0, count).join("\n");

/** The failing test's words, expected vs received, and the bug it points at. */
export function FailureDetail({ test }: { test: TestOutcome }) {
  const failure = test.failure;
  return (
    <Box flexDirection="column">
      <Text color="red" bold>
        {M.firstFailure(test.name)}
      </Text>
      <Box flexDirection="column" marginLeft={2}>
        {failure ? <Text>{firstLines(failure.message, 6)}</Text> : null}
        {failure?.expected !== undefined ? <Text color="green">{`expected: ${firstLines(failure.expected, 8)}`}</Text> : null}
        {failure?.received !== undefined ? <Text color="red">{`received: ${firstLines(failure.received, 8)}`}</Text> : null}
        {test.bug ? <Text color="yellow">{M.whyItMatters(test.bug.summary)}</Text> : null}
      </Box>
    </Box>
  );
}

/** A syntax error as file:line:col with the code line and a caret; a timeout said plainly. */
export function FileErrorDetail({ error }: { error: FileError }) {
  const width = error.line !== undefined ? String(error.line).length : 0;
  return (
    <Box flexDirection="column">
      <Text color={error.kind === "timeout" ? "yellow" : "red"} bold>
        {error.message}
      </Text>
      {error.codeLine !== undefined && error.line !== undefined ? (
        <Box flexDirection="column" marginLeft={2}>
          <Text>{`${error.line} | ${error.codeLine}`}</Text>
          {error.column !== undefined ? <Text color="red">{`${" ".repeat(width)} | ${" ".repeat(Math.max(0, error.column - 1))}^`}</Text> : null}
        </Box>
      ) : null}
      {error.kind === "timeout" ? <Text dimColor>{M.timeoutAfter}</Text> : null}
    </Box>
  );
}

export function AllPassed({ result, state }: { result: RunResult; state: ScreenState }) {
  const n = state.exercise.number;
  return (
    <Box flexDirection="column">
      <Text color="green" bold>
        {`✔ ${M.allPassed(result.total, n)}`}
      </Text>
      <Text>{`  ${M.compare(n)}`}</Text>
      <Text>{`  ${state.next ? M.next(state.next.number, state.next.title) : M.last}`}</Text>
    </Box>
  );
}

/** What the last finished run means: all green, a file error, or the first failure explained. */
export function RunOutcome({ state }: { state: ScreenState }) {
  const result = state.last;
  if (!result) return null;
  const failing = result.tests.find((t) => t.state === "failed" || t.state === "not-run");
  const body = result.error ? (
    <FileErrorDetail error={result.error} />
  ) : result.status === "passed" ? (
    <AllPassed result={result} state={state} />
  ) : failing ? (
    <FailureDetail test={failing} />
  ) : null;
  if (!body) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      {state.phase === "running" ? <Text dimColor>{M.staleLabel}</Text> : null}
      {body}
    </Box>
  );
}
