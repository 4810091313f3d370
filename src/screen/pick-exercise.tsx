import { render } from "ink";
import type { Io } from "../cli/io.js";
import type { ExerciseTable } from "../progress/exercise-table.js";
import { ExercisePicker } from "./exercise-picker.js";

/** Shows the picker until the learner starts an exercise (its number) or quits (null). */
export async function pickExercise(io: Io, table: ExerciseTable): Promise<number | null> {
  let chosen: number | null = null;
  const instance = render(<ExercisePicker table={table} onChoose={(n) => (chosen = n)} />, {
    stdout: io.stdout as NodeJS.WriteStream,
    stdin: io.stdin as NodeJS.ReadStream,
    stderr: io.stderr as NodeJS.WriteStream,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  await instance.waitUntilExit();
  return chosen;
}
