/**
 * The lab checks its own exercises: the solution passes every hidden test, the stub fails
 * every one, and every named bug (a mutant) is caught by a test that carries its name, so the
 * screen explains the mistake actually made. The commented SDK reference (tier 3) and every
 * correct solution written another way (alternatives/) pass like the solution does: a test
 * that fails them asserts one route, not the property. A test that is the only one catching
 * some mutant, or the only one named after it, has earned its place; one that does neither
 * could be deleted without anyone noticing, so it is reported too. Live checks ("live: ...")
 * are judged among themselves, and the other tests among the rest: a live run skips the
 * staged tests, so a live check that repeats one of them in words a real model can meet is
 * the only guard of its bug there.
 */
import { basename } from "node:path";
import { bugOfTest, isLiveCheck, type Exercise } from "../model/exercises.js";
import type { RunResult } from "../model/result.js";
import type { Runner } from "../run/runner.js";

export interface MutantVerdict {
  /** "split-results", or "blind/caches-writes" for one of a group (see model/mutants.ts). */
  name: string;
  bug: string;
  /** Tests that pass on the solution and fail on this mutant. */
  killedBy: string[];
  /** Set when the mutant did not even load: a kill that proves nothing. */
  loadError: string | null;
}

/** How a file that must pass everything did: reference/tier3.ts or one alternative. */
export interface CorrectFileVerdict {
  /** Relative to the exercise folder, e.g. "alternatives/full-jitter.ts". */
  file: string;
  passed: number;
  total: number;
}

export interface ExerciseVerdict {
  exercise: string;
  tests: string[];
  solution: { passed: number; total: number };
  stub: { failed: number; total: number };
  mutants: MutantVerdict[];
  /** reference/tier3.ts, when the exercise has one. */
  reference: CorrectFileVerdict | null;
  alternatives: CorrectFileVerdict[];
  /** Test name → mutants no other test kills. */
  uniqueKills: Record<string, string[]>;
  problems: string[];
}

/** Every run the verdict rests on; `reference` and `alternatives` follow the exercise's own lists. */
export interface ExerciseRuns {
  solution: RunResult;
  stub: RunResult;
  mutants: RunResult[];
  reference?: RunResult | null;
  alternatives?: RunResult[];
  /** Set when the reference and the alternatives ran elsewhere ("walled"), with the solution run there too. */
  elsewhere?: { where: string; solution: RunResult } | undefined;
}

export const SELF_CHECK_MESSAGES = {
  solutionFails: (test: string, why: string) => `the solution fails "${test}": ${why}`,
  solutionError: (message: string) => `the solution does not run: ${message}`,
  noTests: "the hidden test file defines no tests",
  stubPasses: (test: string) => `the stub passes "${test}", so that test cannot fail`,
  mutantSurvives: (bug: string) => `mutant ${bug} survives: no hidden test fails on it`,
  mutantBroken: (bug: string, message: string) => `mutant ${bug} does not load (${message}), so it proves nothing`,
  mutantUnnamed: (name: string, bug: string) =>
    `mutant ${name} is caught only by tests named after other bugs: no test ending "(${bug} bug)" fails on it, so the screen would explain the wrong mistake`,
  bugWithoutMutant: (bug: string) => `bug ${bug} has no mutants/${bug}.diff`,
  namedBugMissed: (test: string, bug: string) => `"${test}" names the ${bug} bug but passes on mutant ${bug}`,
  correctFileFails: (file: string, test: string, why: string) => `${file} must pass every hidden test but fails "${test}": ${why}`,
  correctFileError: (file: string, message: string) => `${file} must pass every hidden test but does not run: ${message}`,
  testKillsNothingAlone: (test: string) =>
    `"${test}" is neither the only test to catch a mutant nor the only one named after it, so deleting it would go unnoticed`,
} as const;

/** How the report names the files that must pass everything, relative to the exercise folder. */
const REFERENCE_LABEL = "reference/tier3.ts";
const alternativeLabel = (file: string) => `alternatives/${basename(file)}`;

const failing = (result: RunResult) => new Set(result.tests.filter((t) => t.state !== "passed").map((t) => t.name));

/** Problems of a file that must pass every test the solution runs. */
function judgeCorrectFile(file: string, run: RunResult, tests: string[], problems: string[]): CorrectFileVerdict {
  if (run.error && run.tests.length === 0) problems.push(SELF_CHECK_MESSAGES.correctFileError(file, run.error.message));
  else {
    for (const name of tests) {
      const outcome = run.tests.find((t) => t.name === name);
      if (outcome?.state !== "passed")
        problems.push(SELF_CHECK_MESSAGES.correctFileFails(file, name, outcome?.failure?.message ?? outcome?.state ?? "not run"));
    }
  }
  return { file, passed: run.passed, total: run.total };
}

export function judge(exercise: Exercise, runs: ExerciseRuns): ExerciseVerdict {
  const { solution, stub } = runs;
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
    const run = runs.mutants[i]!;
    const loadError = run.error && run.error.kind !== "timeout" && run.tests.length === 0 ? run.error.message : null;
    const killedBy = loadError ? [] : [...failing(run)].filter((name) => solutionPasses.has(name));
    if (loadError) problems.push(SELF_CHECK_MESSAGES.mutantBroken(m.name, loadError));
    else if (killedBy.length === 0) problems.push(SELF_CHECK_MESSAGES.mutantSurvives(m.name));
    else if (!killedBy.some((name) => bugOfTest(name) === m.bug)) problems.push(SELF_CHECK_MESSAGES.mutantUnnamed(m.name, m.bug));
    return { name: m.name, bug: m.bug, killedBy, loadError };
  });

  for (const bug of Object.keys(exercise.bugs)) {
    if (!exercise.mutants.some((m) => m.bug === bug)) problems.push(SELF_CHECK_MESSAGES.bugWithoutMutant(bug));
  }
  for (const t of solution.tests) {
    const bug = t.bug?.id;
    const mutant = bug ? mutants.find((m) => m.bug === bug) : undefined;
    if (bug && mutant && !mutant.loadError && !mutant.killedBy.includes(t.name)) problems.push(SELF_CHECK_MESSAGES.namedBugMissed(t.name, bug));
  }

  const at = runs.elsewhere ? ` (${runs.elsewhere.where})` : "";
  if (runs.elsewhere) judgeCorrectFile(`the solution${at}`, runs.elsewhere.solution, tests, problems);
  const reference = runs.reference ? judgeCorrectFile(REFERENCE_LABEL + at, runs.reference, tests, problems) : null;
  const alternatives = exercise.alternatives.map((file, i) =>
    judgeCorrectFile(alternativeLabel(file) + at, runs.alternatives?.[i] ?? missingRun(file), tests, problems),
  );

  const uniqueKills: Record<string, string[]> = Object.fromEntries(tests.map((name) => [name, [] as string[]]));
  const sameKind = (a: string, b: string) => isLiveCheck(a) === isLiveCheck(b);
  for (const m of mutants) {
    for (const name of m.killedBy) if (m.killedBy.filter((killer) => sameKind(killer, name)).length === 1) uniqueKills[name]!.push(m.name);
  }
  if (problems.length === 0) {
    const onlyNamedKiller = (name: string) =>
      mutants.some((m) => bugOfTest(name) === m.bug && m.killedBy.filter((killer) => bugOfTest(killer) === m.bug && sameKind(killer, name)).length === 1);
    for (const name of tests) {
      if (uniqueKills[name]!.length === 0 && !onlyNamedKiller(name)) problems.push(SELF_CHECK_MESSAGES.testKillsNothingAlone(name));
    }
  }

  return {
    exercise: exercise.id,
    tests,
    solution: { passed: solution.passed, total: solution.total },
    stub: { failed: stub.failed, total: stub.total },
    mutants,
    reference,
    alternatives,
    uniqueKills,
    problems,
  };
}

/** A run that never happened, for a caller that passed fewer alternative runs than there are files. */
function missingRun(file: string): RunResult {
  return {
    exercise: "",
    file,
    status: "error",
    tests: [],
    passed: 0,
    failed: 0,
    total: 0,
    error: { kind: "crash", message: "it was not run" },
    ms: 0,
  };
}

/**
 * The files an exercise's self-check runs, in the order `judge` reads them back: the solution,
 * the stub and the mutants, then the alternatives and the tier 3 reference, or, when those run
 * elsewhere, that second list led by the solution once more.
 */
function filesOf(exercise: Exercise, elsewhere: string | null) {
  const reference = exercise.references[3] ?? null;
  const correct = [...exercise.alternatives, ...(reference ? [reference] : [])];
  const here = [exercise.solution, exercise.stub, ...exercise.mutants.map((m) => m.file), ...(elsewhere === null ? correct : [])];
  const there = elsewhere === null ? [] : [exercise.solution, ...correct];
  const judgeRuns = (hereRuns: RunResult[], thereRuns: RunResult[]) => {
    const mutantEnd = 2 + exercise.mutants.length;
    const correctRuns = elsewhere === null ? hereRuns.slice(mutantEnd) : thereRuns.slice(1);
    return judge(exercise, {
      solution: hereRuns[0]!,
      stub: hereRuns[1]!,
      mutants: hereRuns.slice(2, mutantEnd),
      alternatives: correctRuns.slice(0, exercise.alternatives.length),
      reference: reference ? correctRuns[exercise.alternatives.length]! : null,
      elsewhere: elsewhere === null ? undefined : { where: elsewhere, solution: thereRuns[0]! },
    });
  };
  return { here, there, judgeRuns };
}

/**
 * Whose code the self-check runs: the lab's own, every file of it, so a worker process may run
 * one file after another (each with fresh modules and a realm of its own for the file's code).
 */
export const SELF_CHECK_OWNER = "the lab's own exercise files";

/** Runs `files[i]` of `exercises[i]` on `runner`, as the lab's own, and hands the results back in the same shape. */
async function runInOrder(runner: Pick<Runner, "runMany">, exercises: Exercise[], files: string[][]): Promise<RunResult[][]> {
  const results = await runner.runMany(files.flatMap((list, i) => list.map((implFile) => ({ exercise: exercises[i]!, implFile, owner: SELF_CHECK_OWNER }))));
  let at = 0;
  return files.map((list) => results.slice(at, (at += list.length)));
}

/**
 * Runs the solution, the stub, every mutant, every alternative and the tier 3 reference of each
 * exercise, all in one batch so the workers never wait for one exercise's slowest file. Given
 * `elsewhere` (grading's walls, say), the files that must pass everything run there instead, the
 * solution among them, at the same time as the rest: a correct file must pass in both places,
 * and passing behind the walls is the stricter of the two.
 */
export async function selfCheck(
  runner: Pick<Runner, "runMany">,
  exercises: Exercise[],
  elsewhere?: { runner: Pick<Runner, "runMany">; where: string },
): Promise<ExerciseVerdict[]> {
  const plans = exercises.map((exercise) => filesOf(exercise, elsewhere?.where ?? null));
  const hereFiles = plans.map((p) => p.here);
  const thereFiles = plans.map((p) => p.there);
  const [here, there] = await Promise.all([
    runInOrder(runner, exercises, hereFiles),
    elsewhere ? runInOrder(elsewhere.runner, exercises, thereFiles) : plans.map(() => []),
  ]);
  return plans.map((plan, i) => plan.judgeRuns(here[i]!, there[i]!));
}

/** The self-check's report: what killed each mutant, how the correct files did, and every problem in words. */
export function describeVerdict(v: ExerciseVerdict): string[] {
  const killed = v.mutants.filter((m) => m.killedBy.length > 0).length;
  const correct = [...(v.reference ? [v.reference] : []), ...v.alternatives];
  const lines = [
    `${v.exercise}: solution ${v.solution.passed}/${v.solution.total} passed, stub ${v.stub.failed}/${v.stub.total} failed, mutants ${killed}/${v.mutants.length} killed, ` +
      `correct files ${correct.filter((c) => c.total > 0 && c.passed === c.total).length}/${correct.length} passed`,
  ];
  for (const m of v.mutants) {
    lines.push(`  ${m.name}: ${m.killedBy.length > 0 ? `killed by ${m.killedBy.map((t) => `"${t}"`).join(", ")}` : m.loadError ? "did not load" : "SURVIVED"}`);
  }
  for (const c of correct) lines.push(`  ${c.file}: ${c.passed}/${c.total} passed`);
  for (const p of v.problems) lines.push(`  problem: ${p}`);
  return lines;
}
