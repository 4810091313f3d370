import { Box, Text } from "ink";
import { FailureDetail, FileErrorDetail } from "../screen/run-outcome.js";
import { SCREEN_MESSAGES } from "../screen/screen-messages.js";
import type { ScreenState } from "../screen/screen-state.js";
import { resultLines, type DrillTargets } from "./compare.js";
import { elapsedMs, interviewDone, isGreen, isLocked, isTiming, type DrillState } from "./drill-state.js";
import type { DrillRecord } from "./history.js";
import { DRILL_KEYS as K, DRILL_MESSAGES as M, peekName } from "./messages.js";

/** Before green: the first failure or the file error of the last run. After: how the attempt compares. */
export function DrillOutcome({ screen, drill, previous, targets }: { screen: ScreenState; drill: DrillState; previous: DrillRecord[]; targets: DrillTargets }) {
  if (isGreen(drill)) {
    const attempt = {
      exercise: drill.exercise.number,
      seconds: elapsedMs(drill, 0) / 1000,
      passed: true,
      peeked: drill.peeked,
      lines: drill.lines ?? 0,
      runs: drill.runs,
      interview: null,
    };
    return (
      <Box flexDirection="column" marginTop={1}>
        {resultLines(attempt, previous, targets).map((line, i) => (
          <Text key={i} color={i === 0 ? "green" : undefined} bold={i === 0}>
            {i === 0 ? `✔ ${line}` : `  ${line}`}
          </Text>
        ))}
      </Box>
    );
  }
  const result = screen.last;
  if (!result) return null;
  const failing = result.tests.find((t) => t.state === "failed" || t.state === "not-run");
  const body = result.error ? <FileErrorDetail error={result.error} /> : failing ? <FailureDetail test={failing} /> : null;
  if (!body) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      {screen.phase === "running" ? <Text dimColor>{SCREEN_MESSAGES.staleLabel}</Text> : null}
      {body}
    </Box>
  );
}

/** After green in interview mode: one question at a time, the learner's answer, then the model answer. */
export function InterviewPanel({ drill }: { drill: DrillState }) {
  const interview = drill.interview;
  if (!interview) return null;
  const right = interview.marks.filter(Boolean).length;
  if (interviewDone(drill)) {
    return (
      <Box marginTop={1}>
        <Text color="cyan">{M.interviewDone(right, interview.marks.length)}</Text>
      </Box>
    );
  }
  const { q, a } = interview.questions[interview.index]!;
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold color="cyan">
        {M.question(interview.index + 1, interview.questions.length, q)}
      </Text>
      <Text dimColor>{M.answerPrompt}</Text>
      <Text>{`> ${interview.answer}${interview.stage === "typing" ? "▌" : ""}`}</Text>
      {interview.stage === "judging" ? (
        <Box flexDirection="column" marginTop={1}>
          <Text color="green">{M.modelAnswer(a)}</Text>
          <Text bold>{M.markPrompt}</Text>
        </Box>
      ) : null}
    </Box>
  );
}

/** The pending confirmation, or what the attempt has peeked at. */
export function PeekNote({ drill }: { drill: DrillState }) {
  if (drill.confirm === null && drill.peeks.length === 0) return null;
  return (
    <Box marginTop={1}>
      {drill.confirm !== null ? <Text color="yellow">{M.confirmPeek(peekName(drill.confirm))}</Text> : <Text dimColor>{M.peekedNote(drill.peeks)}</Text>}
    </Box>
  );
}

/** The keys that do something now; the locked ones are named as locked. */
export function drillKeys(screen: ScreenState, drill: DrillState): string[] {
  if (drill.interview && !interviewDone(drill)) return [drill.interview.stage === "typing" ? K.typing : K.judging];
  if (drill.confirm !== null) return [K.confirm];
  if (screen.pane) return [K.pane];
  const peek = isLocked(drill) ? K.locked(screen.exercise.tiers) : K.peekKeys(screen.exercise.tiers);
  return [peek, K.rerun, isTiming(drill) ? K.giveUp : K.quit];
}

export function DrillKeyBar({ screen, drill, interactive }: { screen: ScreenState; drill: DrillState; interactive: boolean }) {
  if (!interactive) return null;
  return <Text dimColor>{drillKeys(screen, drill).join(" · ")}</Text>;
}
