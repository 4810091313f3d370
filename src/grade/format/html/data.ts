/** The data behind each part of the HTML report, as plain values (tested on their own; the page only draws them). */
import type { CopyMatch } from "../../copies/flags.js";
import type { GradeState } from "../../record.js";
import type { ClassReport } from "../../report.js";

export interface GridCell {
  learner: string;
  exercise: string;
  state: GradeState;
  passed: number;
  total: number;
  /** passed / total from 0 to 1; null when no test ran. */
  share: number | null;
  /** The anchor of this pair's failures, or null when there is nothing to show. */
  anchor: string | null;
}

export interface GridRow {
  learner: string;
  cells: GridCell[];
}

/** An id fit for an HTML anchor, the same for the same pair in every report. */
export const anchorOf = (learner: string, exercise: string) => `f-${encodeURIComponent(`${learner}/${exercise}`).replace(/%/g, "_")}`;

/** Learners × exercises (the exercises nobody handed in left out), in the report's order. */
export function gridRows(report: ClassReport): GridRow[] {
  const rows = new Map<string, GridCell[]>();
  for (const r of report.rows) {
    if (report.unsubmitted.includes(r.exercise)) continue;
    const cell: GridCell = {
      learner: r.learner,
      exercise: r.exercise,
      state: r.state,
      passed: r.passed,
      total: r.total,
      share: r.total === 0 ? null : r.passed / r.total,
      anchor: r.state === "pass" ? null : anchorOf(r.learner, r.exercise),
    };
    rows.set(r.learner, [...(rows.get(r.learner) ?? []), cell]);
  }
  return [...rows].map(([learner, cells]) => ({ learner, cells }));
}

export interface PassRate {
  exercise: string;
  /** Learners who passed every test, of all learners (those without a file count as not passing). */
  passed: number;
  learners: number;
  rate: number;
}

export const passRates = (report: ClassReport): PassRate[] =>
  report.exercises
    .filter((e) => !report.unsubmitted.includes(e.exercise))
    .map((e) => ({ exercise: e.exercise, passed: e.passed, learners: e.learners, rate: e.rate }));

export interface ScoreBin {
  /** Lower edge in percent; the last bin (90) includes 100. */
  from: number;
  to: number;
  learners: number;
}

/** Learners' scores (points of their maximum, by `grading`) in ten bins of ten percent. */
export function scoreBins(report: ClassReport): ScoreBin[] {
  const bins = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: i * 10 + 10, learners: 0 }));
  for (const score of report.scores) {
    const percent = score.fraction * 100;
    bins[Math.min(9, Math.floor(percent / 10 + 1e-9))]!.learners++;
  }
  return bins;
}

export interface DrillSummary {
  exercise: string;
  targetLines: number;
  /** Learners with at least one attempt. */
  learners: number;
  attempts: number;
  /** Over each learner's best passed attempt with nothing opened. */
  fastestSeconds: number | null;
  medianSeconds: number | null;
  medianLines: number | null;
}

const median = (values: number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export interface DrillPoint {
  learner: string;
  exercise: string;
  seconds: number;
  lines: number | null;
}

/** Each learner's best fair drill time per exercise, for the chart. */
export const drillPoints = (report: ClassReport): DrillPoint[] =>
  report.records.flatMap((r) =>
    r.drill?.bestSeconds == null ? [] : [{ learner: r.learner, exercise: r.exercise, seconds: r.drill.bestSeconds, lines: r.drill.bestLines }],
  );

/** Per exercise that anyone drilled: how many, how fast, how long. */
export function drillSummaries(report: ClassReport): DrillSummary[] {
  return report.exerciseNotes.flatMap((e) => {
    const drilled = report.records.filter((r) => r.exercise === e.exercise && r.drill !== null);
    if (drilled.length === 0) return [];
    const best = drilled.flatMap((r) => (r.drill!.bestSeconds === null ? [] : [r.drill!.bestSeconds]));
    const lines = drilled.flatMap((r) => (r.drill!.bestLines === null ? [] : [r.drill!.bestLines]));
    return [
      {
        exercise: e.exercise,
        targetLines: e.targetLines,
        learners: drilled.length,
        attempts: drilled.reduce((sum, r) => sum + r.drill!.attempts, 0),
        fastestSeconds: best.length === 0 ? null : Math.min(...best),
        medianSeconds: median(best),
        medianLines: median(lines),
      },
    ];
  });
}

export interface CopyGroup {
  exercise: string;
  /** The references the program is (none: the learners only match each other). */
  known: CopyMatch[];
  learners: string[];
}

/** The flagged files, one group per exercise × program, the largest first within an exercise. */
export function copyGroups(report: ClassReport): CopyGroup[] {
  const prints = new Map(report.records.map((r) => [r.key, r.fingerprint]));
  const groups = new Map<string, CopyGroup & { number: number }>();
  for (const flag of report.copies) {
    const id = `${flag.exercise}\u0000${prints.get(flag.key)}`;
    const group = groups.get(id) ?? { exercise: flag.exercise, number: flag.number, known: flag.matches.filter((m) => m.kind !== "learner"), learners: [] };
    group.learners.push(flag.learner);
    groups.set(id, group);
  }
  return [...groups.values()].sort((a, b) => a.number - b.number || b.learners.length - a.learners.length).map(({ number: _number, ...group }) => group);
}
