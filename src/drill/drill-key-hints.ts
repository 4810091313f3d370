import { outputKeyHint } from "../screen/results-window.js";
import type { ScreenState } from "../screen/screen-state.js";
import { interviewDone, isAttempting, isLocked, type DrillState } from "./drill-state.js";
import { DRILL_KEYS as K } from "./messages.js";

/** The keys that do something now; the locked ones are named as locked. */
export function drillKeys(screen: ScreenState, drill: DrillState): string[] {
  if (drill.interview && !interviewDone(drill)) return [drill.interview.stage === "typing" ? K.typing : K.judging];
  if (drill.confirmGiveUp) return [K.confirmGiveUp];
  if (drill.confirm !== null) return [K.confirm];
  if (screen.pane) return [K.pane];
  const peek = isLocked(drill) ? K.locked(screen.exercise.tiers) : K.peekKeys(screen.exercise.tiers);
  const output = outputKeyHint(screen);
  return [peek, K.rerun, ...(output ? [output] : []), isAttempting(drill) ? K.giveUp : K.quit];
}
