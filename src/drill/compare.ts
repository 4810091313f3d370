/** How one attempt compares: with the targets, the personal best and the last five attempts. */
import type { DrillRecord } from "./history.js";
import { DRILL_MESSAGES as M } from "./messages.js";

export interface DrillTargets {
  seconds: number;
  lines: number;
}

/** The attempt being judged, as the screen knows it at green or when the learner gives up. */
export interface AttemptResult {
  exercise: number;
  seconds: number;
  passed: boolean;
  peeked: boolean;
  /** Green faster than typing allows: no best. */
  pasted: boolean;
  lines: number;
  runs: number;
  interview: { right: number; asked: number } | null;
}

/** The best green time without peeking or pasting among `records`, or null. */
export function personalBest(records: DrillRecord[]): number | null {
  const times = records.filter((r) => r.passed && r.peeked !== true && r.pasted !== true).map((r) => r.seconds);
  return times.length === 0 ? null : Math.min(...times);
}

/** Whole seconds, as the learner sees them: two times that print alike compare equal. */
const whole = (seconds: number) => Math.round(seconds);

function targetLine(attempt: AttemptResult, targets: DrillTargets): string {
  const overTime = whole(attempt.seconds) - targets.seconds;
  const time = overTime > 0 ? M.timeOver(targets.seconds, overTime) : M.timeUnder(targets.seconds, -overTime);
  const overLines = attempt.lines - targets.lines;
  const lines = overLines > 0 ? M.linesOver(targets.lines, overLines) : M.linesUnder(targets.lines, attempt.lines);
  return M.target(time, lines);
}

function bestLine(attempt: AttemptResult, best: number | null): string {
  if (attempt.pasted) return M.pastedNoBest(best);
  if (attempt.peeked) return M.peekedNoBest(best);
  if (best === null) return M.firstBest(attempt.exercise);
  const delta = whole(attempt.seconds) - whole(best);
  if (delta < 0) return M.newBest(-delta, best);
  if (delta === 0) return M.sameBest(best);
  return M.slowerThanBest(best, delta);
}

/** The last five attempts, then (after green) a sentence comparing this one with their green average. */
function lastFiveLines(attempt: AttemptResult, lastFive: DrillRecord[]): string[] {
  const list = lastFive.map((r) => (r.passed ? M.greenTime(r.seconds, r.peeked === true, r.pasted === true) : M.gaveUpAt(r.seconds))).join(" · ");
  const green = lastFive.filter((r) => r.passed).map((r) => r.seconds);
  const listed = M.lastFive(lastFive.length, list);
  if (!attempt.passed) return [listed];
  if (green.length === 0) return [listed, M.noGreenToCompare];
  const average = green.reduce((a, b) => a + b, 0) / green.length;
  return [listed, M.versusAverage(average, whole(attempt.seconds) - whole(average))];
}

/**
 * What the result says, line by line. `previous` is this exercise's history before this
 * attempt, oldest first.
 */
export function resultLines(attempt: AttemptResult, previous: DrillRecord[], targets: DrillTargets): string[] {
  const { seconds, lines, runs, peeked } = attempt;
  const lastFive = previous.slice(-5);
  if (!attempt.passed) {
    return [M.gaveUp(seconds, lines, runs, peeked), ...(lastFive.length > 0 ? lastFiveLines(attempt, lastFive) : [])];
  }
  return [
    M.green(seconds, lines, runs, peeked),
    M.linesCounted,
    targetLine(attempt, targets),
    bestLine(attempt, personalBest(previous)),
    ...(lastFive.length > 0 ? lastFiveLines(attempt, lastFive) : []),
    ...(attempt.interview ? [M.interviewScore(attempt.interview.right, attempt.interview.asked)] : []),
  ];
}
