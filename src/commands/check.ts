import { Runner } from "../../checker/run/runner.js";
import { writeLine, type Io } from "../cli/io.js";
import { inLearnerWords } from "../report/learner-words.js";
import { describeRun } from "../report/plain-run.js";
import { exerciseOrFail, implFileOrFail, loadContext, type LabContext } from "./context.js";

export interface CheckOptions {
  file?: string;
  json?: boolean;
}

/** `lab check N`: one run, printed as rows; exit 0 only when every test passes. */
export async function checkCommand(key: string, opts: CheckOptions, io: Io, paths?: LabContext["paths"]): Promise<number> {
  const ctx = await loadContext(io, paths);
  const exercise = exerciseOrFail(ctx, key);
  const implFile = implFileOrFail(ctx, io, exercise, opts.file);
  const runner = await Runner.create({ timeoutSeconds: ctx.config.config.timeoutSeconds });
  try {
    const result = await runner.run({ exercise, implFile });
    if (opts.json) {
      writeLine(io.stdout, JSON.stringify(result, null, 2));
    } else {
      const said = inLearnerWords(result, exercise);
      writeLine(io.stdout, `lab check ${exercise.number}: ${exercise.title}`);
      writeLine(io.stdout, `file: ${implFile}`);
      writeLine(io.stdout);
      for (const line of describeRun(said)) writeLine(io.stdout, line);
    }
    return result.status === "passed" ? 0 : 1;
  } finally {
    await runner.close();
  }
}
