import type { Exercise } from "../../checker/model/exercises.js";
import type { RunResult } from "../../checker/model/result.js";
import { isInside, realOrSame } from "../../checker/run/walls/import-wall.js";
import { forkFirstWorker } from "../../checker/run/first-worker.js";
import type { RunnerOptions } from "../../checker/run/runner-options.js";
import { writeLine, type Io } from "../terminal/io.js";
import { inLearnerWords } from "../report/learner-words.js";
import { DEFAULT_MEMORY_MB } from "../grade/options.js";
import { walledRunnerOptions } from "../grade/sandbox.js";
import { describeRun, describeTypeErrors } from "../report/plain-run.js";
import { PENDING, settledOr, TypeChecker, type TypeCheck } from "../typecheck/type-checker.js";
import { exerciseOrFail, implFileOrFail, loadContext, type LabContext } from "./context.js";
import { LIVE_MESSAGES, liveEnv, liveTarget, openLive, spendLines, type LiveFlags } from "./live.js";

export interface CheckOptions extends LiveFlags {
  file?: string;
  json?: boolean;
}

export const CHECK_NOTES = {
  walled: (file: string) =>
    `${file} is outside your workspace, so it runs walled off as in lab grade: no files read or written outside the lab, no processes, no signals, no environment.`,
  typeCheckPending: "The type check had not finished when the tests had, so its warnings are left out (lab start shows them as you save).",
} as const;

/**
 * A file outside the workspace may be anyone's (an instructor checking a submission), so
 * it runs behind grading's walls: a learner tool never reads the instructor's files. As in
 * grading, the worker reads a copy of the hidden test in the runner's scratch folder and
 * nothing else of the exercise, and writes only in its TMPDIR, where the exercise's fixtures
 * are laid down for it first.
 */
function wallsFor(ctx: LabContext, exercise: Exercise, implFile: string): RunnerOptions | null {
  if (isInside(realOrSame(implFile), realOrSame(ctx.config.workspaceDir))) return null;
  return walledRunnerOptions(ctx.paths.root, [exercise], DEFAULT_MEMORY_MB);
}

/**
 * `lab check N`: one run, printed as rows; exit 0 only when every test passes. The type check
 * (`makeTypeCheck`, the lab's own TypeChecker unless a test hands it one) runs beside the run;
 * whatever it has not answered when the verdict is ready is left out, never waited for.
 */
export async function checkCommand(
  key: string,
  opts: CheckOptions,
  io: Io,
  paths?: LabContext["paths"],
  makeTypeCheck: () => TypeCheck = () => new TypeChecker(),
): Promise<number> {
  const ctx = await loadContext(io, paths, { workspace: opts.file === undefined });
  const exercise = exerciseOrFail(ctx, key);
  const implFile = implFileOrFail(ctx, io, exercise, opts.file);
  const target = liveTarget(opts, io.env);
  const gate = target ? await openLive(target) : null;
  const walls = wallsFor(ctx, exercise, implFile);
  if (walls) writeLine(io.stderr, CHECK_NOTES.walled(implFile));
  // Live, the workers learn the gate's URL from their environment (walled ones too: theirs is given whole).
  const env = gate ? { env: liveEnv(gate, walls?.env ?? io.env) } : {};
  const typeCheck = opts.json || !ctx.config.config.typeCheck ? null : makeTypeCheck();
  // Beside the run, at the lowest priority: a warning the verdict takes if it is there in time.
  const typeErrors = typeCheck?.check(implFile) ?? Promise.resolve(null);
  const options = { timeoutSeconds: ctx.config.config.timeoutSeconds, ...walls, ...env };
  // The worker starts while vitest loads: the runner is imported only after it is forked.
  const spares = forkFirstWorker(options);
  const runner = await import("../../checker/run/runner.js")
    .then(({ Runner }) => Runner.create(options, spares))
    .catch(async (error: unknown) => {
      spares.killAll();
      await Promise.all([typeCheck?.close(), gate?.close()]);
      throw error;
    });
  try {
    const request = { exercise, implFile };
    const result = walls ? (await runner.runMany([request]))[0]! : await runner.run(request);
    // The same words as the screen, in the JSON too: its messages are read by people as well.
    const said = inLearnerWords(result, exercise);
    if (opts.json) {
      const live = gate && { url: gate.upstream, maxUsd: gate.maxUsd, spend: gate.spend(), capped: gate.capped };
      writeLine(io.stdout, JSON.stringify(live ? { ...said, live } : said, null, 2));
    } else {
      writeLine(io.stdout, `lab check ${exercise.number}: ${exercise.title}`);
      writeLine(io.stdout, `file: ${implFile}`);
      if (gate) writeLine(io.stdout, LIVE_MESSAGES.header(gate.upstream, gate.maxUsd));
      writeLine(io.stdout);
      const lines = describeRun(said);
      // The type errors go just above the closing line, which stays last for whoever reads it; a
      // file that does not parse has only its syntax error to say (the checker would repeat it).
      const typeWarnings = result.error?.kind === "syntax" ? null : await settledOr(typeErrors);
      lines.splice(lines.length - 1, 0, ...(typeWarnings === PENDING ? [CHECK_NOTES.typeCheckPending, ""] : describeTypeErrors(typeWarnings)));
      if (gate && result.total > 0) lines.splice(lines.length - 1, 1, liveVerdict(result));
      if (gate) lines.push(...spendLines(gate));
      for (const line of lines) writeLine(io.stdout, line);
    }
    // A live run the cap cut short is no verdict, whatever its tests made of the refusals.
    return result.status === "passed" && !gate?.capped ? 0 : 1;
  } finally {
    await Promise.all([runner.close(), typeCheck?.close(), gate?.close()]);
  }
}

/** A live run's closing line: its verdict says live, and how many tests it left to the scripted provider. */
const liveVerdict = (result: RunResult) => LIVE_MESSAGES.verdict(result.passed, result.failed, result.tests.filter((t) => t.state === "skipped").length);
