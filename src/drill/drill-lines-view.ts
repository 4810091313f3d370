/** The drill screen as lines fitted to the terminal, laid out like the live screen. */
import { formatSeconds } from "../progress/drills.js";
import { bodyLines, liveHeight } from "../screen/screen-layout.js";
import type { ResultsWindow } from "../screen/results-window.js";
import { GAP, section, styled, type Line } from "../screen/lines.js";
import {
  failureLines,
  fileErrorLines,
  firstFailing,
  hintLines,
  keyLines,
  noticeLines,
  paneChrome,
  paneLines,
  staleLines,
  statusLine,
  titleLines,
  typeErrorLines,
} from "../screen/screen-parts.js";
import type { ScreenState } from "../screen/screen-state.js";
import { wrapCodeLine, wrapLine } from "../screen/wrap.js";
import { bigText } from "./big-clock.js";
import { resultLines, type DrillTargets } from "./compare.js";
import { drillKeys } from "./drill-key-hints.js";
import { elapsedMs, interviewDone, isGreen, type DrillState } from "./drill-state.js";
import type { DrillRecord } from "./history.js";
import { DRILL_MESSAGES as M, peekName as peekNameOf } from "./messages.js";

export interface DrillFrame {
  screen: ScreenState;
  drill: DrillState;
  nowMs: number;
  interactive: boolean;
  previous: DrillRecord[];
  targets: DrillTargets;
}

/** The clock's colour: green once stopped, yellow past the target. */
function clockStyle(drill: DrillState, seconds: number, target: number) {
  if (isGreen(drill)) return { color: "green" };
  return seconds > target ? { color: "yellow" } : {};
}

/** Drill and exercise, the targets, the file, the large clock and where the run stands. */
export function drillHeaderLines({ screen, drill, nowMs, targets }: DrillFrame): Line[] {
  const width = screen.size.columns;
  // A running clock shows whole seconds gone; a stopped one the time the summary reports, rounded the same way.
  const ms = elapsedMs(drill, nowMs);
  const seconds = isGreen(drill) ? Math.round(ms / 1000) : Math.floor(ms / 1000);
  const status = statusLine(screen);
  return [
    ...titleLines(M.title(drill.attempt, drill.exercise.number, drill.exercise.title), M.targets(targets.seconds, targets.lines), width),
    ...styled(wrapCodeLine(drill.file, width), { dim: true }),
    ...(drill.changed ? [] : styled(wrapLine(M.linesRule(targets.lines), width), { dim: true })),
    GAP,
    ...styled(
      bigText(formatSeconds(seconds)).map((row) => `  ${row}`),
      clockStyle(drill, seconds, targets.seconds),
    ),
    GAP,
    ...styled(wrapLine(status.text, width), { color: status.color }),
  ];
}

/** Before green: the first failure or the file error of the last run. After: how the attempt compares. */
export function drillOutcomeLines({ screen, drill, previous, targets }: DrillFrame): Line[] {
  const width = screen.size.columns;
  if (isGreen(drill)) {
    const attempt = {
      exercise: drill.exercise.number,
      seconds: elapsedMs(drill, 0) / 1000,
      passed: true,
      peeked: drill.peeked,
      pasted: drill.pasted,
      lines: drill.lines ?? 0,
      runs: drill.runs,
      interview: null,
    };
    return resultLines(attempt, previous, targets).flatMap((text, i) =>
      i === 0 ? styled(wrapLine(`✔ ${text}`, width, "", "  "), { color: "green", bold: true }) : styled(wrapLine(text, width, "  ")),
    );
  }
  const result = screen.last;
  if (!result) return [];
  const failing = firstFailing(result);
  const body = result.error ? fileErrorLines(result.error, width) : failing ? failureLines(failing, width) : [];
  return body.length === 0 ? [] : [...staleLines(screen, width), ...body];
}

/** After green in interview mode: one question at a time, the learner's answer, then the model answer. */
export function interviewLines({ screen, drill }: DrillFrame): Line[] {
  const width = screen.size.columns;
  const interview = drill.interview;
  if (!interview) return [];
  const right = interview.marks.filter(Boolean).length;
  if (interviewDone(drill)) return styled(wrapLine(M.interviewDone(right, interview.marks.length), width), { color: "cyan" });
  const { q, a } = interview.questions[interview.index]!;
  const judging = interview.stage === "judging";
  return [
    ...styled(wrapLine(M.question(interview.index + 1, interview.questions.length, q), width), { bold: true, color: "cyan" }),
    ...styled(wrapLine(M.answerPrompt, width), { dim: true }),
    ...styled(wrapLine(`${interview.answer}${interview.stage === "typing" ? "▌" : ""}`, width, "> ", "  ")),
    ...(judging ? [GAP, ...styled(wrapLine(M.modelAnswer(a), width), { color: "green" }), ...styled(wrapLine(M.markPrompt, width), { bold: true })] : []),
  ];
}

/** The pending confirmation, or what the attempt has peeked at. */
export function peekLines({ screen, drill }: DrillFrame): Line[] {
  const width = screen.size.columns;
  if (drill.confirmGiveUp) return styled(wrapLine(M.confirmGiveUp, width), { color: "yellow" });
  if (drill.confirm !== null) return styled(wrapLine(M.confirmPeek(peekNameOf(drill.confirm)), width), { color: "yellow" });
  return drill.peeks.length === 0 ? [] : styled(wrapLine(M.peekedNote(drill.peeks), width), { dim: true });
}

function drillParts(frame: DrillFrame) {
  const width = frame.screen.size.columns;
  return {
    header: drillHeaderLines(frame),
    notes: [
      ...section(interviewLines(frame)),
      ...section(typeErrorLines(frame.screen, width)),
      ...section(noticeLines(frame.screen, width)),
      ...section(hintLines(frame.screen, width)),
      ...section(peekLines(frame)),
    ],
    keys: frame.interactive ? section(keyLines(drillKeys(frame.screen, frame.drill), width)) : [],
  };
}

/** The parts of a frame that decide its layout; the rest only change words in it. */
export type LayoutFrame = Omit<DrillFrame, "nowMs" | "previous" | "targets"> & Partial<DrillFrame>;

const fullFrame = (frame: LayoutFrame): DrillFrame => ({ nowMs: 0, previous: [], targets: { seconds: 600, lines: 25 }, ...frame });

/** How many of an open pane's lines fit on the drill screen now. */
export function drillPaneRows(frame: LayoutFrame): number {
  const full = fullFrame(frame);
  if (!full.screen.pane) return 0;
  const { header, notes, keys } = drillParts(full);
  const used = header.length + notes.length + keys.length + 1 + paneChrome(full.screen.pane, full.screen.size.columns);
  return Math.max(3, liveHeight(full.screen) - used);
}

function drillBody(frame: DrillFrame) {
  const parts = drillParts(frame);
  const room = liveHeight(frame.screen) - parts.header.length - parts.notes.length - parts.keys.length;
  return { ...parts, body: bodyLines(frame.screen, drillOutcomeLines(frame), room) };
}

/** Where the drill's results window stands now; null when the results fit or a pane covers them. */
export function drillResultsWindow(frame: LayoutFrame): ResultsWindow | null {
  return frame.screen.pane ? null : drillBody(fullFrame(frame)).body.window;
}

/** Every line of the drill's live part; the clock always stays on screen. */
export function drillLinesOf(frame: DrillFrame): Line[] {
  const { screen } = frame;
  if (screen.pane) {
    const { header, notes, keys } = drillParts(frame);
    return [...header, ...notes, GAP, ...paneLines(screen.pane, screen.size.columns, drillPaneRows(frame)), ...keys];
  }
  const { header, notes, keys, body } = drillBody(frame);
  return [...header, ...body.lines, ...notes, ...keys];
}
