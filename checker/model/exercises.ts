/** Exercises are data: folders named NN-slug, each described by a validated exercise.json. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { builtDir, listMutants, MutantError, writeMutants, type Mutant } from "./mutants.js";

export interface Question {
  q: string;
  a: string;
}

export interface Exercise {
  /** "NN-slug", the folder's name */
  id: string;
  number: number;
  slug: string;
  title: string;
  targetLines: number;
  tiers: number[];
  hints: string[];
  /** Bug id → the one-line mechanism it breaks. */
  bugs: Record<string, string>;
  questions: Question[];
  dir: string;
  /**
   * Where the build puts what it makes of this folder: support/ and scenarios.ts compiled,
   * each diff mutant written out whole (dist/exercises/NN-slug/ of the lab the folder is in).
   */
  built: string;
  /** The learner's file name in the workspace: "NN-slug.ts". */
  fileName: string;
  lesson: string;
  stub: string;
  hiddenTest: string;
  solution: string;
  /** Existing reference files by tier (1: tier1.md, 2: tier2.ts, 3: tier3.ts). */
  references: Record<number, string>;
  /** Its named bugs, each a full file to run (see mutants.ts). */
  mutants: Mutant[];
  /** Correct solutions written another way (alternatives/*.ts): each must pass every hidden test. */
  alternatives: string[];
}

export class ExerciseError extends Error {
  override name = "ExerciseError";
}

const FOLDER = /^(\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)$/;
const REFERENCE_FILES: Record<number, string> = { 1: "tier1.md", 2: "tier2.ts", 3: "tier3.ts" };

type Raw = Record<string, unknown>;

function field<T>(raw: Raw, folder: string, name: string, ok: (v: unknown) => boolean, what: string): T {
  const value = raw[name];
  if (!ok(value)) throw new ExerciseError(`exercises/${folder}/exercise.json: "${name}" ${what}.`);
  return value as T;
}

const isString = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";
const isStringList = (v: unknown) => Array.isArray(v) && v.every(isString);

function parse(dir: string, solutionsDir: string, mutantFiles: MutantFiles): Exercise {
  const folder = basename(dir);
  const match = FOLDER.exec(folder)!;
  const jsonPath = join(dir, "exercise.json");
  if (!existsSync(jsonPath)) throw new ExerciseError(`exercises/${folder}: exercise.json is missing.`);
  let raw: Raw;
  try {
    raw = JSON.parse(readFileSync(jsonPath, "utf8")) as Raw;
  } catch (err) {
    throw new ExerciseError(`exercises/${folder}/exercise.json: is not valid JSON (${(err as Error).message}).`);
  }
  const number = field<number>(raw, folder, "number", (v) => v === Number(match[1]), `must be ${Number(match[1])}, the folder's number`);
  const slug = field<string>(raw, folder, "slug", (v) => v === match[2], `must be "${match[2]}", the folder's slug`);
  const title = field<string>(raw, folder, "title", isString, "must be a non-empty string");
  const targetLines = field<number>(raw, folder, "targetLines", (v) => Number.isInteger(v) && (v as number) > 0, "must be a positive whole number");
  const tiers = field<number[]>(
    raw,
    folder,
    "tiers",
    (v) => Array.isArray(v) && v.length > 0 && v.every((t) => t === 1 || t === 2 || t === 3),
    "must list the tiers present, from 1, 2 and 3",
  );
  const hints = field<string[]>(raw, folder, "hints", (v) => isStringList(v) && (v as string[]).length > 0, "must be a non-empty list of strings");
  const bugs = field<Record<string, string>>(
    raw,
    folder,
    "bugs",
    (v) => typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every(isString),
    "must map bug ids to one-line descriptions",
  );
  const questions = field<Question[]>(
    raw,
    folder,
    "questions",
    (v) => Array.isArray(v) && v.every((q) => isString((q as Raw)?.["q"]) && isString((q as Raw)?.["a"])),
    'must be a list of { "q": …, "a": … }',
  );

  const references: Record<number, string> = {};
  for (const tier of tiers) {
    const file = join(dir, "reference", REFERENCE_FILES[tier]!);
    if (!existsSync(file))
      throw new ExerciseError(`exercises/${folder}/exercise.json: "tiers" lists ${tier} but reference/${REFERENCE_FILES[tier]} is missing.`);
    references[tier] = file;
  }
  const where = { dir, exercisesDir: dirname(dir), solutionsDir };
  let mutants: Mutant[];
  try {
    mutants = listMutants(where, bugs);
    if (mutantFiles === "write") writeMutants(where, mutants);
  } catch (err) {
    if (err instanceof MutantError) throw new ExerciseError(err.message);
    throw err;
  }
  const alternativeDir = join(dir, "alternatives");
  const alternatives = existsSync(alternativeDir)
    ? readdirSync(alternativeDir)
        .filter((f) => f.endsWith(".ts"))
        .sort()
        .map((f) => join(alternativeDir, f))
    : [];
  const files = { lesson: join(dir, "lesson.md"), stub: join(dir, "stub.ts"), hiddenTest: join(dir, "hidden.test.ts") };
  for (const [name, file] of Object.entries(files)) {
    if (!existsSync(file)) throw new ExerciseError(`exercises/${folder}: ${basename(file)} is missing (the ${name}).`);
  }
  return {
    id: folder,
    number,
    slug,
    title,
    targetLines,
    tiers,
    hints,
    bugs,
    questions,
    dir,
    built: builtDir(dir),
    fileName: `${folder}.ts`,
    ...files,
    solution: join(solutionsDir, `${folder}.ts`),
    references,
    mutants,
    alternatives,
  };
}

/** The exercise's compiled support/: what its hidden tests import as "lab:support" (and its demo as kit.support()). */
export const supportModule = (exercise: Pick<Exercise, "built">) => join(exercise.built, "support", "index.js");

/**
 * Writes the full file of each of the exercise's diff mutants; `always`: even when it looks
 * current (the build). Returns the files written; a diff that does not apply throws, naming it.
 */
export function writeExerciseMutants(exercise: Exercise, options: { always?: boolean } = {}): string[] {
  return writeMutants({ dir: exercise.dir, exercisesDir: dirname(exercise.dir), solutionsDir: dirname(exercise.solution) }, exercise.mutants, options);
}

/** Every exercise under `exercisesDir`, in number order; a bad one names its folder and field. */
export function loadExercises(exercisesDir: string, solutionsDir: string): Exercise[] {
  const { exercises, problems } = surveyExercises(exercisesDir, solutionsDir, "write");
  if (problems[0]) throw problems[0];
  return exercises;
}

/**
 * Whether loading an exercise brings its diff mutants' full files up to date ("write": whoever
 * runs them, the self-check and the benches) or leaves them be ("leave": the lab's commands,
 * which never run a mutant, so `lab list` does not check 190 files on every call).
 */
export type MutantFiles = "write" | "leave";

/** Every exercise that loads, and the problem with each one that does not, for callers that can carry on without it. */
export function surveyExercises(
  exercisesDir: string,
  solutionsDir: string,
  mutantFiles: MutantFiles = "write",
): { exercises: Exercise[]; problems: ExerciseError[] } {
  const exercises: Exercise[] = [];
  const problems: ExerciseError[] = [];
  if (!existsSync(exercisesDir)) return { exercises, problems };
  const folders = readdirSync(exercisesDir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && FOLDER.test(entry.name));
  for (const folder of folders.sort((a, b) => a.name.localeCompare(b.name))) {
    try {
      exercises.push(parse(join(exercisesDir, folder.name), solutionsDir, mutantFiles));
    } catch (err) {
      if (!(err instanceof ExerciseError)) throw err;
      problems.push(err);
    }
  }
  return { exercises: exercises.sort((a, b) => a.number - b.number), problems };
}

/** Finds an exercise by number ("4", "04") or folder name. */
export function findExercise(exercises: Exercise[], key: string): Exercise | undefined {
  const n = Number(key);
  return exercises.find((e) => e.id === key || e.slug === key || (Number.isInteger(n) && e.number === n));
}

/**
 * How a live check's name starts: a hidden test whose assertions hold whatever the model says,
 * run against a real endpoint by `--live` while the tests only the scripted provider can stage
 * are skipped (checker/testing/live/).
 */
export const LIVE_CHECK_PREFIX = "live: ";

export const isLiveCheck = (name: string) => name.startsWith(LIVE_CHECK_PREFIX);

/** The test name's "(id bug)" suffix, if it has one. */
export function bugOfTest(name: string): string | null {
  return /\(([a-z0-9]+(?:-[a-z0-9]+)*) bug\)\s*$/.exec(name)?.[1] ?? null;
}
