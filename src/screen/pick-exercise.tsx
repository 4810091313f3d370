import type { Io } from "../terminal/io.js";
import type { ExerciseTable } from "../progress/exercise-table.js";
import { ExercisePicker } from "./exercise-picker.js";
import { mountScreen } from "./mount.js";

/** Shows the picker until the learner starts an exercise (its number) or quits (null). */
export async function pickExercise(io: Io, table: ExerciseTable): Promise<number | null> {
  let chosen: number | null = null;
  const instance = mountScreen(io, <ExercisePicker table={table} onChoose={(n) => (chosen = n)} />);
  await instance.waitUntilExit();
  return chosen;
}
