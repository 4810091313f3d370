/** What `<workspace>/.lab/progress.json` holds, and how a parsed file is checked. */

export interface RunRecord {
  at: string;
  passed: number;
  total: number;
}

export interface ExerciseProgress {
  /** How many hints the learner has seen, from `h` on the screen or `lab hint N`. */
  hintsShown: number;
  startedAt?: string;
  lastRun?: RunRecord;
  /** The first run in which every test passed. */
  passedAt?: string;
  solutionSeenAt?: string;
  /** The solution was shown with --force before the exercise had passed. */
  solutionForcedAt?: string;
  /** The tier 3 reference (the SDK version, a whole solution) was opened before the exercise had passed. */
  tier3ForcedAt?: string;
  resetAt?: string;
}

export interface Progress {
  version: 1;
  /** By exercise id, "01-tool-loop". */
  exercises: Record<string, ExerciseProgress>;
}

export const emptyProgress = (): Progress => ({ version: 1, exercises: {} });

export const emptyExercise = (): ExerciseProgress => ({ hintsShown: 0 });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isTime = (v: unknown): v is string => typeof v === "string" && !Number.isNaN(Date.parse(v));

function exerciseFrom(raw: unknown): ExerciseProgress | null {
  if (!isObject(raw) || !isCount(raw["hintsShown"])) return null;
  const out: ExerciseProgress = { hintsShown: raw["hintsShown"] };
  for (const key of ["startedAt", "passedAt", "solutionSeenAt", "solutionForcedAt", "tier3ForcedAt", "resetAt"] as const) {
    if (raw[key] === undefined) continue;
    if (!isTime(raw[key])) return null;
    out[key] = raw[key];
  }
  const run = raw["lastRun"];
  if (run !== undefined) {
    if (!isObject(run) || !isTime(run["at"]) || !isCount(run["passed"]) || !isCount(run["total"])) return null;
    out.lastRun = { at: run["at"], passed: run["passed"], total: run["total"] };
  }
  return out;
}

/** The progress in `text`, or null when it is not a progress file this version wrote. */
export function parseProgress(text: string): Progress | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(raw) || raw["version"] !== 1 || !isObject(raw["exercises"])) return null;
  const progress = emptyProgress();
  for (const [id, entry] of Object.entries(raw["exercises"])) {
    const exercise = exerciseFrom(entry);
    if (!exercise) return null;
    progress.exercises[id] = exercise;
  }
  return progress;
}

/** What the learner opened of the answer before passing, as grading names it: the solution, the tier 3 reference. */
export function peeksBeforePass(record: ExerciseProgress | undefined): string[] {
  return [...(record?.solutionForcedAt ? ["solution"] : []), ...(record?.tier3ForcedAt ? ["tier 3"] : [])];
}
