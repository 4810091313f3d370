/**
 * A generated class, as bench/grade.mjs makes one: every learner's files are the lab's own
 * solutions, alternatives, mutants and stubs (three to eight in ten correct), spread over the learners
 * deterministically; plus drill histories and peeks in some learners' .lab/, from the same
 * shapes `lab drill`, `lab hint` and `lab solution` write.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Exercise } from "../../../checker/model/exercises.js";

export type Kind = "solution" | "alternative" | "mutant" | "stub";

export interface Handed {
  learner: string;
  exercise: string;
  kind: Kind;
  /** The mutant's bug, the alternative's name. */
  name: string | null;
}

export interface ClassOptions {
  learners: number;
  /** Exercises nobody hands in (their rows are all "missing"). */
  unsubmitted?: number[];
  /**
   * The first learners hand in one kind of file each (the solution, each alternative, each bug,
   * then the stub) of every exercise with that many kinds; the learners after them, the spread of
   * `variant`. Every kind then takes as few learners as there are kinds.
   */
  eachKindFirst?: boolean;
}

export const learnerName = (i: number) => `learner-${String(i + 1).padStart(2, "0")}`;

/** Of every ten learners, how many hand in a correct file for an exercise: from 3 to 8, so exercises differ. */
export const correctTenths = (exercise: Exercise) => 3 + ((exercise.number * 7) % 6);

type Handing = { file: string; kind: Kind; name: string | null };

/** The files that pass: the solution, then each alternative. */
const correctFiles = (exercise: Exercise): Handing[] => [
  { file: exercise.solution, kind: "solution", name: null },
  ...exercise.alternatives.map((file) => ({ file, kind: "alternative" as const, name: basename(file, ".ts") })),
];

/** The files that fail: each bug, then the stub. */
const wrongFiles = (exercise: Exercise): Handing[] => [
  ...exercise.mutants.map((m) => ({ file: m.file, kind: "mutant" as const, name: m.bug })),
  { file: exercise.stub, kind: "stub", name: null },
];

/**
 * Learner i's file for an exercise: bench/grade.mjs's spread of solutions, mutants and stubs, with
 * the alternatives among the correct files and a pass rate of its own for each exercise.
 */
export function variant(i: number, exercise: Exercise): Handing {
  const files = (i * 3 + exercise.number) % 10 < correctTenths(exercise) ? correctFiles(exercise) : wrongFiles(exercise);
  return files[(i >> 1) % files.length]!;
}

/** Every kind of file an exercise can be handed in as, in the order `eachKindFirst` hands them in. */
export const everyKind = (exercise: Exercise): Handing[] => [...correctFiles(exercise), ...wrongFiles(exercise)];

function writeNotes(dir: string, i: number, exercises: Exercise[]): void {
  const drills = exercises.flatMap((e, k) => {
    if ((i + k) % 3 !== 0) return [];
    const at = new Date(Date.UTC(2026, 2, 1 + (i % 20), 10, k)).toISOString();
    const fair = { exercise: e.number, seconds: 180 + ((i * 37 + k * 53) % 540), passed: true, lines: e.targetLines + (i % 5) - 2, attempt: 1, at };
    const peeked = { exercise: e.number, seconds: 95, passed: true, peeked: true, peeks: ["hint", "tier 1"], lines: e.targetLines, attempt: 2, at };
    return i % 4 === 0 ? [fair, peeked] : [fair];
  });
  const progress = Object.fromEntries(
    exercises.flatMap((e, k) =>
      (i + k) % 5 === 0 ? [[e.id, { hintsShown: 1 + (i % 3), ...(i % 10 === 0 ? { solutionForcedAt: "2026-03-02T09:00:00.000Z" } : {}) }]] : [],
    ),
  );
  if (drills.length === 0 && Object.keys(progress).length === 0) return;
  mkdirSync(join(dir, ".lab"), { recursive: true });
  if (drills.length > 0) writeFileSync(join(dir, ".lab/drills.jsonl"), drills.map((d) => `${JSON.stringify(d)}\n`).join(""));
  if (Object.keys(progress).length > 0) writeFileSync(join(dir, ".lab/progress.json"), `${JSON.stringify({ version: 1, exercises: progress }, null, 2)}\n`);
}

/** Writes the class into `dir` and says what each learner handed in. */
export function generateClass(dir: string, exercises: Exercise[], options: ClassOptions): Handed[] {
  const handed: Handed[] = [];
  for (let i = 0; i < options.learners; i++) {
    const learner = learnerName(i);
    const own = join(dir, learner);
    mkdirSync(own, { recursive: true });
    for (const exercise of exercises) {
      if (options.unsubmitted?.includes(exercise.number)) continue;
      const { file, kind, name } = (options.eachKindFirst ? everyKind(exercise)[i] : undefined) ?? variant(i, exercise);
      copyFileSync(file, join(own, exercise.fileName));
      handed.push({ learner, exercise: exercise.id, kind, name });
    }
    writeNotes(own, i, exercises);
  }
  return handed;
}
