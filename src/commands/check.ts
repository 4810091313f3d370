import type { Exercise } from "../../checker/model/exercises.js";
import { isInside, realOrSame } from "../../checker/run/walls/import-wall.js";
import { Runner, type RunnerOptions } from "../../checker/run/runner.js";
import { writeLine, type Io } from "../terminal/io.js";
import { inLearnerWords } from "../report/learner-words.js";
import { DEFAULT_MEMORY_MB } from "../grade/options.js";
import { walledRunnerOptions } from "../grade/sandbox.js";
import { describeRun, describeTypeErrors } from "../report/plain-run.js";
import { TypeChecker } from "../typecheck/type-checker.js";
import { exerciseOrFail, implFileOrFail, loadContext, type LabContext } from "./context.js";

export interface CheckOptions {
  file?: string;
  json?: boolean;
}

export const CHECK_NOTES = {
  walled: (file: string) =>
    `${file} is outside your workspace, so it runs walled off as in lab grade: no files read or written outside the lab, no processes, no signals, no environment.`,
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

/** `lab check N`: one run, printed as rows; exit 0 only when every test passes. */
export async function checkCommand(key: string, opts: CheckOptions, io: Io, paths?: LabContext["paths"]): Promise<number> {
  const ctx = await loadContext(io, paths, { workspace: opts.file === undefined });
  const exercise = exerciseOrFail(ctx, key);
  const implFile = implFileOrFail(ctx, io, exercise, opts.file);
  const walls = wallsFor(ctx, exercise, implFile);
  if (walls) writeLine(io.stderr, CHECK_NOTES.walled(implFile));
  const runner = await Runner.create({ timeoutSeconds: ctx.config.config.timeoutSeconds, ...walls });
  const typeCheck = opts.json || !ctx.config.config.typeCheck ? null : new TypeChecker();
  try {
    const request = { exercise, implFile };
    const result = walls ? (await runner.runMany([request]))[0]! : await runner.run(request);
    // After the run, so it never takes CPU from it: the type check is a warning, not the verdict.
    const typeErrors = typeCheck?.check(implFile) ?? Promise.resolve(null);
    // The same words as the screen, in the JSON too: its messages are read by people as well.
    const said = inLearnerWords(result, exercise);
    if (opts.json) {
      writeLine(io.stdout, JSON.stringify(said, null, 2));
    } else {
      writeLine(io.stdout, `lab check ${exercise.number}: ${exercise.title}`);
      writeLine(io.stdout, `file: ${implFile}`);
      writeLine(io.stdout);
      const lines = describeRun(said);
      // The type errors go just above the closing line, which stays last for whoever reads it; a
      // file that does not parse has only its syntax error to say (the checker would repeat it).
      const typeWarnings = result.error?.kind === "syntax" ? null : await typeErrors;
      lines.splice(lines.length - 1, 0, ...describeTypeErrors(typeWarnings));
      for (const line of lines) writeLine(io.stdout, line);
    }
    return result.status === "passed" ? 0 : 1;
  } finally {
    await Promise.all([runner.close(), typeCheck?.close()]);
  }
}
