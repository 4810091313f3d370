/**
 * `lab drill N` without a terminal (CI, pipes): no clock can start at a save nobody watches,
 * so nothing is timed and nothing is added to the history. The hidden tests run once on the
 * latest drill file of the exercise (a fresh one is written when there is none), as plain
 * lines. Exit code: 0 when every test passes, 1 when any fails, 130 when interrupted.
 */
import type { Exercise } from "../../checker/model/exercises.js";
import { writeLine, type Io } from "../terminal/io.js";
import { plainPrinter } from "../screen/plain-printer.js";
import { INTERRUPTED_EXIT_CODE, runOnce } from "../watch/run-once.js";
import { createDrillFile, drillFiles } from "./drill-files.js";
import { attemptsOf, readHistory } from "./history.js";
import { DRILL_MESSAGES as M } from "./messages.js";

export interface PlainDrillOptions {
  io: Io;
  exercise: Exercise;
  workspaceDir: string;
  timeoutSeconds: number;
  interview: boolean;
  /** The workers' environment (a live run's names its gate); inherited by default. */
  env?: Record<string, string>;
}

export async function plainDrill({ io, exercise, workspaceDir, timeoutSeconds, interview, env }: PlainDrillOptions): Promise<number> {
  if (interview) writeLine(io.stderr, M.plainInterview);
  const latest = drillFiles(workspaceDir, exercise).at(-1);
  let file: string;
  if (latest) {
    file = latest.file;
    writeLine(io.stdout, M.plainOnce(exercise.number, file));
  } else {
    const attempts = attemptsOf(readHistory(workspaceDir), exercise.number).map((r) => r.attempt ?? 0);
    file = createDrillFile(workspaceDir, exercise, Math.max(0, ...attempts)).file;
    writeLine(io.stdout, M.plainFresh(exercise.number, file));
  }
  const result = await runOnce({ exercise, implFile: file, timeoutSeconds, listener: plainPrinter(io.stdout, exercise), ...(env ? { env } : {}) });
  if (result === null) return INTERRUPTED_EXIT_CODE;
  return result.status === "passed" ? 0 : 1;
}
