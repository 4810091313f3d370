import { formatSeconds } from "./drills.js";
import type { ExerciseTable } from "./exercise-table.js";
import { nextExercise } from "./status.js";

export const TABLE_MESSAGES = {
  noExercises: "There are no exercises yet.",
  next: (n: number, title: string) => `Next: lab start ${n} (${title})`,
  allPassed: "Every exercise has passed. Try them again from memory with lab drill.",
} as const;

/** The exercise list as aligned plain lines, for pipes and CI. */
export function plainTable({ rows, hasDrills }: ExerciseTable): string[] {
  if (rows.length === 0) return [TABLE_MESSAGES.noExercises];
  const head = ["#", "Exercise", "Status", ...(hasDrills ? ["Best drill"] : []), "Next"];
  const cells = rows.map((r) => [
    String(r.exercise.number),
    r.exercise.title,
    r.status,
    ...(hasDrills ? [r.bestDrill === null ? "" : formatSeconds(r.bestDrill)] : []),
    r.nextStep,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((cell, i) => (i === 0 ? cell.padStart(widths[0]!) : cell.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  const next = nextExercise(rows);
  return [line(head), ...cells.map(line), "", next ? TABLE_MESSAGES.next(next.exercise.number, next.exercise.title) : TABLE_MESSAGES.allPassed];
}
