import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadExercises, type Exercise } from "../../../checker/run/exercises.js";
import { tempDir } from "../../support/temp-dir.js";

const FIXTURE = join(import.meta.dirname, "../../fixtures/lab");

/** A private copy of the fixture exercise, optionally with one hidden test deleted; removed after the test. */
export function fixtureCopy(options: { withoutTest?: string; stubSource?: string } = {}): Exercise {
  const root = tempDir("self-check");
  cpSync(FIXTURE, root, { recursive: true });
  const exercise = loadExercises(join(root, "exercises"), join(root, "solutions"))[0]!;
  if (options.withoutTest) {
    const source = readFileSync(exercise.hiddenTest, "utf8");
    const start = source.indexOf(`test(${JSON.stringify(options.withoutTest)}`);
    if (start < 0) throw new Error(`No test named ${options.withoutTest}`);
    const end = source.indexOf("\n});\n", start) + "\n});\n".length;
    writeFileSync(exercise.hiddenTest, source.slice(0, start) + source.slice(end));
  }
  if (options.stubSource) writeFileSync(exercise.stub, options.stubSource);
  return exercise;
}
