import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Exercise } from "../../checker/model/exercises.js";
import { UserError } from "../terminal/errors.js";
import { writeLine, type Io } from "../terminal/io.js";
import { GRADE_DIR, learnersIn, pairsOf, shardOf } from "../grade/class-dir.js";
import { writeLearnerResults } from "../grade/exercism.js";
import { render } from "../grade/format/index.js";
import { gradeClass, type GradeEvent, type Signals } from "../grade/grade-class.js";
import { mergeResults } from "../grade/merge.js";
import { GRADE_ERRORS, GRADE_NOTES } from "../grade/messages.js";
import { gradeSettings, GRADE_FAILED, mergeConflicts, parseExerciseList, parseFormat, type Format, type GradeFlags } from "../grade/options.js";
import { limitsOf, type GradeRecord } from "../grade/record.js";
import { buildReport, type ClassReport } from "../grade/report.js";
import { ResultsStore } from "../grade/store.js";
import { writeAtomically } from "../progress/write-atomically.js";
import { loadContext, type LabContext } from "./context.js";

/** The exit code after Ctrl-C: results so far are saved, the table is not printed. */
export const INTERRUPTED = 130;

const fail = (message: string): never => {
  throw new UserError(message, GRADE_FAILED);
};

function selectExercises(all: Exercise[], wanted: number[] | null): Exercise[] {
  if (all.length === 0) fail(GRADE_ERRORS.noExercises);
  if (!wanted) return all;
  const missing = wanted.filter((n) => !all.some((e) => e.number === n));
  if (missing.length > 0)
    fail(
      GRADE_ERRORS.noSuchExercises(
        missing,
        all.map((e) => e.number),
      ),
    );
  return all.filter((e) => wanted.includes(e.number));
}

/** Points for an exercise that does not exist are a mistake in lab.config.ts, caught before anything runs. */
function checkWeights(ctx: LabContext): void {
  const unknown = Object.keys(ctx.config.config.grading.weights).filter((n) => !ctx.exercises.some((e) => String(e.number) === n));
  if (unknown.length > 0)
    fail(
      GRADE_ERRORS.unknownWeights(
        ctx.config.file ?? "lab.config.ts",
        unknown,
        ctx.exercises.map((e) => e.number),
      ),
    );
}

const learnerCount = (records: GradeRecord[]) => new Set(records.map((r) => r.learner)).size;

/** Gradescope's results are one submission's: a class of more is a mistake, said before grading. */
function checkFormatFits(format: Format, learners: number): void {
  if (format === "gradescope" && learners !== 1) fail(GRADE_ERRORS.gradescopeOneLearner(learners));
}

function reportOf(records: GradeRecord[], ctx: LabContext): ClassReport {
  const { version } = JSON.parse(readFileSync(join(ctx.paths.root, "package.json"), "utf8")) as { version: string };
  return buildReport(records, { exercises: ctx.exercises, grading: ctx.config.config.grading, version, date: new Date().toISOString() });
}

/** The table goes to --out when given, else to stdout; either way it is the whole output. */
function emit(text: string, out: string | null, io: Io): void {
  if (!out) {
    io.stdout.write(text);
    return;
  }
  const file = resolve(io.cwd, out);
  try {
    writeAtomically(file, text);
  } catch (err) {
    fail(GRADE_ERRORS.outNotWritable(file, (err as Error).message));
  }
  writeLine(io.stderr, GRADE_NOTES.wrote(file));
}

function progress(io: Io): (event: GradeEvent) => void {
  return (event) => {
    if (event.type === "planned") {
      writeLine(io.stderr, GRADE_NOTES.planned(event.toRun, event.reused, event.recorded));
      return;
    }
    const r = event.record;
    const width = String(event.toRun).length;
    writeLine(
      io.stderr,
      `[${String(event.done).padStart(width)}/${event.toRun}] ${r.learner} ${r.exercise}: ${r.state}${r.total > 0 ? ` ${r.passed}/${r.total}` : ""}${r.ms === null ? "" : ` (${r.ms} ms)`}`,
    );
  };
}

/** `lab grade DIR`: every learner × exercise, isolated; exit 0 whatever the learners scored. */
export async function gradeCommand(
  dir: string | undefined,
  flags: GradeFlags,
  io: Io,
  paths?: LabContext["paths"],
  signals: Signals = process,
): Promise<number> {
  if (flags.merge) {
    if (dir !== undefined) fail(GRADE_ERRORS.dirAndMerge);
    return mergeCommand(flags.merge, flags, io, paths);
  }
  if (dir === undefined) fail(GRADE_ERRORS.noDir);
  const ctx = await loadContext(io, paths);
  const settings = gradeSettings(flags, ctx.config.config.timeoutSeconds);
  const exercises = selectExercises(ctx.exercises, settings.exercises);
  checkWeights(ctx);
  const classDir = resolve(io.cwd, dir!);
  const learners = learnersIn(classDir);
  checkFormatFits(settings.format, learners.length);
  const pairs = shardOf(pairsOf(classDir, learners, exercises), settings.shard);
  const store = new ResultsStore(join(classDir, GRADE_DIR));
  try {
    store.touch();
  } catch (err) {
    fail(GRADE_ERRORS.resultsNotWritable(store.dir, (err as Error).message));
  }

  const started = performance.now();
  const run = await gradeClass({
    pairs,
    store,
    engine: {
      jobs: settings.jobs,
      timeoutSeconds: settings.timeoutSeconds,
      memoryMb: settings.memoryMb,
      // What a worker needs to read besides the runners' test copies: the SDK, vitest, the compiled checker.
      readable: [join(ctx.paths.root, "node_modules"), join(ctx.paths.root, "dist")],
    },
    limits: limitsOf(settings.timeoutSeconds, settings.memoryMb),
    fresh: settings.fresh,
    signals,
    onEvent: progress(io),
  });
  if (run.interrupted) {
    writeLine(io.stderr, GRADE_NOTES.interrupted(run.records.size, pairs.length, store.file));
    return INTERRUPTED;
  }
  const records = pairs.map((pair) => run.records.get(pair.key)!);
  writeLearnerResults(store.dir, records);
  emit(await render(reportOf(records, ctx), settings.format), settings.out, io);
  writeLine(io.stderr, GRADE_NOTES.finished(run.graded, run.reused, (performance.now() - started) / 1000, store.dir));
  return 0;
}

/** `lab grade --merge DIR...`: shards' results combined into the same table and files as one run. */
async function mergeCommand(dirs: string[], flags: GradeFlags, io: Io, paths?: LabContext["paths"]): Promise<number> {
  const conflicts = mergeConflicts(flags);
  if (conflicts.length > 0) fail(GRADE_ERRORS.mergeOnlyFlags(conflicts));
  const format = parseFormat(flags.format ?? "table");
  const wanted = flags.exercises === undefined ? null : parseExerciseList(flags.exercises);
  const ctx = await loadContext(io, paths);
  checkWeights(ctx);
  const merged = mergeResults(dirs.map((d) => resolve(io.cwd, d)));
  const shown: GradeRecord[] = wanted ? merged.records.filter((r) => wanted.includes(r.number)) : merged.records;
  checkFormatFits(format, learnerCount(shown));
  new ResultsStore(merged.outDir).replaceAll(merged.records);
  writeLearnerResults(merged.outDir, shown);
  emit(await render(reportOf(shown, ctx), format), flags.out ?? null, io);
  writeLine(io.stderr, GRADE_NOTES.merged(merged.records.length, dirs.length, merged.outDir));
  return 0;
}
