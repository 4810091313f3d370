import { isInteractive, writeLine, type Io } from "../terminal/io.js";
import { exerciseTable } from "../progress/exercise-table.js";
import { plainTable } from "../progress/plain-table.js";
import { ProgressStore } from "../progress/progress-store.js";
import { loadContext, type LabContext } from "./context.js";

/** `lab` and `lab list`: every exercise, its status and the next step; a picker in a terminal. */
export async function listCommand(io: Io, paths?: LabContext["paths"]): Promise<number> {
  const ctx = await loadContext(io, paths, { workspace: true });
  const progress = new ProgressStore(ctx.config.workspaceDir, (sentence) => writeLine(io.stderr, sentence));
  const table = exerciseTable(ctx.exercises, ctx.config.workspaceDir, progress);
  if (!isInteractive(io) || table.rows.length === 0) {
    for (const line of plainTable(table)) writeLine(io.stdout, line);
    return 0;
  }
  const { importScreen } = await import("../screen/import-screen.js");
  const { pickExercise } = await importScreen(() => import("../screen/pick-exercise.js"));
  const chosen = await pickExercise(io, table);
  if (chosen === null) return 0;
  const { startCommand } = await import("./start.js");
  return startCommand(String(chosen), {}, io, paths);
}
