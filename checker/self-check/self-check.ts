/**
 * The lab checks its own exercises: the solution passes every hidden test, the stub fails
 * every one, and every named bug (a mutant) is caught by at least one test. A test that is
 * the only one catching some mutant has earned its place; one that catches nothing alone
 * could be deleted without anyone noticing, so it is reported too.
 */
import type { Exercise } from "../run/exercises.js";
import type { RunResult } from "../run/result.js";
import type { Runner } from "../run/runner.js";

export interface MutantVerdict {
  bug: string;
  /** Tests that pass on the solution and fail on this mutant. */
  killedBy: string[];
  /** Set when the mutant did not even load: a kill that proves nothing. */
  loadError: string | null;
}

export interface ExerciseVerdict {
  exercise: string;
  tests: string[];
  solution: { passed: number; total: number };
  stub: { failed: number; total: number };
  mutants: MutantVerdict[];
  /** Test name → mutants no other test kills. */
  uniqueKills: Record<string, string[]>;
  problems: string[];
}

export const SELF_CHECK_MESSAGES = {
  solutionFails: (test: string, why: string) => `the solution fails "${test}": ${why}`,
  solutionError: (message: string) => `the solution does not run: ${message}`,
  noTests: "the hidden test file defines no tests",
  stubPasses: (test: string) => `the stub passes "${test}", so that test cannot fail`,
  mutantSurvives: (bug: string) => `mutant ${bug} survives: no hidden test fails on it`,
  mutantBroken: (bug: string, message: string) => `mutant ${bug} does not load (${message}), so it proves nothing`,
  bugWithoutMutant: (bug: string) => `bug ${bug} has no mutants/${bug}.ts`,
  namedBugMissed: (test: string, bug: string) => `"${test}" names the ${bug} bug but passes on mutants/${bug}.ts`,
  testKillsNothingAlone: (test: string) => `"${test}" is not the only test to catch any mutant, so deleting it would go unnoticed`,
} as const;

const failing = (result: RunResult) => new Set(result.tests.filter((t) => t.state !== "passed").map((t) => t.name));

export function judge(exercise: Exercise, solution: RunResult, stub: RunResult, mutantRuns: RunResult[]): ExerciseVerdict {
  const problems: string[] = [];
  const tests = solution.tests.map((t) => t.name);
  const solutionPasses = new Set(solution.tests.filter((t) => t.state === "passed").map((t) => t.name));

  if (solution.error) problems.push(SELF_CHECK_MESSAGES.solutionError(solution.error.message));
  if (tests.length === 0 && !solution.error) problems.push(SELF_CHECK_MESSAGES.noTests);
  for (const t of solution.tests) {
    if (t.state !== "passed") problems.push(SELF_CHECK_MESSAGES.solutionFails(t.name, t.failure?.message ?? t.state));
  }
  const stubFails = failing(stub);
  for (const t of stub.tests) if (!stubFails.has(t.name)) problems.push(SELF_CHECK_MESSAGES.stubPasses(t.name));

  const mutants: MutantVerdict[] = exercise.mutants.map((m, i) => {
    const run = mutantRuns[i]!;
    const loadError = run.error && run.error.kind !== "timeout" && run.tests.length === 0 ? run.error.message : null;
    const killedBy = loadError ? [] : [...failing(run)].filter((name) => solutionPasses.has(name));
    if (loadError) problems.push(SELF_CHECK_MESSAGES.mutantBroken(m.bug, loadError));
    else if (killedBy.length === 0) problems.push(SELF_CHECK_MESSAGES.mutantSurvives(m.bug));
    return { bug: m.bug, killedBy, loadError };
  });

  for (const bug of Object.keys(exercise.bugs)) {
    if (!exercise.mutants.some((m) => m.bug === bug)) problems.push(SELF_CHECK_MESSAGES.bugWithoutMutant(bug));
  }
  for (const t of solution.tests) {
    const bug = t.bug?.id;
    const mutant = bug ? mutants.find((m) => m.bug === bug) : undefined;
    if (bug && mutant && !mutant.loadError && !mutant.killedBy.includes(t.name)) problems.push(SELF_CHECK_MESSAGES.namedBugMissed(t.name, bug));
  }

  const uniqueKills: Record<string, string[]> = Object.fromEntries(tests.map((name) => [name, [] as string[]]));
  for (const m of mutants) if (m.killedBy.length === 1) uniqueKills[m.killedBy[0]!]!.push(m.bug);
  if (problems.length === 0) {
    for (const name of tests) if (uniqueKills[name]!.length === 0) problems.push(SELF_CHECK_MESSAGES.testKillsNothingAlone(name));
  }

  return {
    exercise: exercise.id,
    tests,
    solution: { passed: solution.passed, total: solution.total },
    stub: { failed: stub.failed, total: stub.total },
    mutants,
    uniqueKills,
    problems,
  };
}

/** Runs the solution, the stub and every mutant of each exercise, several at a time. */
export async function selfCheck(runner: Runner, exercises: Exercise[]): Promise<ExerciseVerdict[]> {
  const verdicts: ExerciseVerdict[] = [];
  for (const exercise of exercises) {
    const files = [exercise.solution, exercise.stub, ...exercise.mutants.map((m) => m.file)];
    const [solution, stub, ...mutantRuns] = await runner.runMany(files.map((implFile) => ({ exercise, implFile })));
    verdicts.push(judge(exercise, solution!, stub!, mutantRuns));
  }
  return verdicts;
}

/** The self-check's report: what killed each mutant, and every problem in words. */
export function describeVerdict(v: ExerciseVerdict): string[] {
  const killed = v.mutants.filter((m) => m.killedBy.length > 0).length;
  const lines = [
    `${v.exercise}: solution ${v.solution.passed}/${v.solution.total} passed, stub ${v.stub.failed}/${v.stub.total} failed, mutants ${killed}/${v.mutants.length} killed`,
  ];
  for (const m of v.mutants) {
    lines.push(`  ${m.bug}: ${m.killedBy.length > 0 ? `killed by ${m.killedBy.map((t) => `"${t}"`).join(", ")}` : m.loadError ? "did not load" : "SURVIVED"}`);
  }
  for (const p of v.problems) lines.push(`  problem: ${p}`);
  return lines;
}
