/** The panes a live screen opens over its rows (the lesson, a reference tier, the solution), and their titles. */
import { readFileSync } from "node:fs";
import type { Exercise } from "../../checker/model/exercises.js";
import { paneKindOf } from "./screen-state.js";
import type { ScreenStore } from "./screen-store.js";
import { TIER_NAMES } from "./tier-names.js";

export interface PaneSource {
  title: string;
  file: string;
}

export const lessonPane = (exercise: Exercise): PaneSource => ({ title: `Lesson: ${exercise.title}`, file: exercise.lesson });

export const tierPane = (exercise: Exercise, tier: number): PaneSource => ({
  title: `Reference tier ${tier}: ${TIER_NAMES[tier]}`,
  file: exercise.references[tier]!,
});

/** Tier 3, the SDK version, is a whole solution: opening it before a pass is a peek. */
export const SOLUTION_TIER = 3;
export const isSolutionTier = (exercise: Pick<Exercise, "tiers">, tier: number) => tier === SOLUTION_TIER && exercise.tiers.includes(tier);

export const solutionPane = (exercise: Exercise): PaneSource => ({ title: `Solution: ${exercise.title}`, file: exercise.solution });

/** Pressing a pane's key again closes it; otherwise the pane opens, unless `mayOpen` says no. */
export function togglePane(store: ScreenStore, pane: PaneSource, mayOpen: () => boolean = () => true): void {
  if (store.getState().pane?.title === pane.title) return store.dispatch({ type: "pane-closed" });
  if (!mayOpen()) return;
  store.dispatch({ type: "pane-opened", title: pane.title, text: readFileSync(pane.file, "utf8"), kind: paneKindOf(pane.file) });
}
