/**
 * What a learner's own `.lab/` says about an exercise, beside what grading measures: the drill
 * attempts (drills.jsonl) and what was opened along the way (progress.json, and each drill's peeks).
 * Read once per learner; a missing or unreadable file is no notes, never an error.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readHistory } from "../drill/history.js";
import { parseProgress, type Progress } from "../progress/progress-data.js";
import { labDir } from "../progress/progress-store.js";

export interface DrillNotes {
  attempts: number;
  passed: number;
  /** The fastest passed attempt with nothing opened, in seconds, and its line count when recorded. */
  bestSeconds: number | null;
  bestLines: number | null;
}

export interface Peeks {
  hintsShown: number;
  /** The reference solution was shown: after the exercise passed, or (with --force) before. */
  solution: "after passing" | "before passing" | null;
  /** The tier 3 reference (the SDK version, a whole solution) was opened before the exercise passed. */
  tier3BeforePassing: boolean;
  /** One entry per drill attempt that opened anything: what it opened, in order. */
  drills: string[][];
}

export interface LearnerNotes {
  bestDrillSeconds: number | null;
  drill: DrillNotes | null;
  peeks: Peeks | null;
}

export const NO_NOTES: LearnerNotes = { bestDrillSeconds: null, drill: null, peeks: null };

function readProgress(workspaceDir: string): Progress | null {
  try {
    return parseProgress(readFileSync(join(labDir(workspaceDir), "progress.json"), "utf8"));
  } catch {
    return null;
  }
}

/** The notes for each exercise (by number and id) of one learner's workspace. */
export function learnerNotes(workspaceDir: string): (exercise: { number: number; id: string }) => LearnerNotes {
  const history = readHistory(workspaceDir).records;
  const progress = readProgress(workspaceDir);
  return (exercise) => {
    const attempts = history.filter((d) => d.exercise === exercise.number);
    // A time set with the references open, or with the code pasted in, is no time from memory.
    const fair = attempts.filter((d) => d.passed && d.peeked !== true && d.pasted !== true);
    const best = fair.reduce<(typeof fair)[number] | null>((a, d) => (a === null || d.seconds < a.seconds ? d : a), null);
    const drill: DrillNotes | null =
      attempts.length === 0
        ? null
        : { attempts: attempts.length, passed: attempts.filter((d) => d.passed).length, bestSeconds: best?.seconds ?? null, bestLines: best?.lines ?? null };
    const seen = progress?.exercises[exercise.id];
    const drillPeeks = attempts.filter((d) => d.peeked === true).map((d) => d.peeks ?? []);
    const solution = seen?.solutionForcedAt ? "before passing" : seen?.solutionSeenAt ? "after passing" : null;
    const hintsShown = seen?.hintsShown ?? 0;
    const tier3BeforePassing = Boolean(seen?.tier3ForcedAt);
    const peeks: Peeks | null =
      hintsShown === 0 && solution === null && !tier3BeforePassing && drillPeeks.length === 0
        ? null
        : { hintsShown, solution, tier3BeforePassing, drills: drillPeeks };
    return { bestDrillSeconds: best?.seconds ?? null, drill, peeks };
  };
}
