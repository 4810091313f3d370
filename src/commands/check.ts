import { Runner } from "../../checker/run/runner.js";
import { writeLine, type Io } from "../cli/io.js";
import { inLearnerWords } from "../report/learner-words.js";
import { describeRun, describeTypeErrors } from "../report/plain-run.js";
import { TypeChecker } from "../typecheck/type-checker.js";
import { exerciseOrFail, implFileOrFail, loadContext, type LabContext } from "./context.js";

export interface CheckOptions {
  file?: string;
  json?: boolean;
}

/** `lab check N`: one run, printed as rows; exit 0 only when every test passes. */
export async function checkCommand(key: string, opts: CheckOptions, io: Io, paths?: LabContext["paths"]): Promise<number> {
  const ctx = await loadContext(io, paths, { workspace: opts.file === undefined });
  const exercise = exerciseOrFail(ctx, key);
  const implFile = implFileOrFail(ctx, io, exercise, opts.file);
  const runner = await Runner.create({ timeoutSeconds: ctx.config.config.timeoutSeconds });
  const typeCheck = opts.json || !ctx.config.config.typeCheck ? null : new TypeChecker();
  try {
    const result = await runner.run({ exercise, implFile });
    // After the run, so it never takes CPU from it: the type check is a warning, not the verdict.
    const typeErrors = typeCheck?.check(implFile) ?? Promise.resolve(null);
    if (opts.json) {
      writeLine(io.stdout, JSON.stringify(result, null, 2));
    } else {
      const said = inLearnerWords(result, exercise);
      writeLine(io.stdout, `lab check ${exercise.number}: ${exercise.title}`);
      writeLine(io.stdout, `file: ${implFile}`);
      writeLine(io.stdout);
      const lines = describeRun(said);
      // The type errors go just above the closing line, which stays last for whoever reads it.
      lines.splice(lines.length - 1, 0, ...describeTypeErrors(await typeErrors));
      for (const line of lines) writeLine(io.stdout, line);
    }
    return result.status === "passed" ? 0 : 1;
  } finally {
    await Promise.all([runner.close(), typeCheck?.close()]);
  }
}
