/**
 * The misconception map: every failing hidden test names the chapter's bug it catches ("… (no-trim bug)"),
 * so the class's failures add up to which bugs how many learners made, most common first.
 */
import { bugOfTest } from "../../checker/model/exercises.js";
import type { GradeRecord } from "./record.js";

export interface Misconception {
  exercise: string;
  number: number;
  bug: string;
  /** The bug's one sentence from exercise.json; null when the exercise does not explain it. */
  sentence: string | null;
  /** The learners whose failures point at it, each counted once. */
  learners: string[];
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `bugs`: each exercise's bug sentences by exercise id. */
export function misconceptions(records: GradeRecord[], bugs: Map<string, Record<string, string>>): Misconception[] {
  const found = new Map<string, Misconception>();
  for (const record of records) {
    for (const test of record.tests) {
      const bug = test.status === "pass" ? null : bugOfTest(test.name);
      if (bug === null) continue;
      const key = `${record.exercise}\u0000${bug}`;
      const entry = found.get(key) ?? {
        exercise: record.exercise,
        number: record.number,
        bug,
        sentence: bugs.get(record.exercise)?.[bug] ?? null,
        learners: [],
      };
      if (!entry.learners.includes(record.learner)) entry.learners.push(record.learner);
      found.set(key, entry);
    }
  }
  return [...found.values()]
    .map((m) => ({ ...m, learners: [...m.learners].sort(byCodePoint) }))
    .sort((a, b) => b.learners.length - a.learners.length || a.number - b.number || byCodePoint(a.bug, b.bug));
}
