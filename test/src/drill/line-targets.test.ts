import { existsSync, readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { labPaths } from "../../../checker/paths.js";
import { loadExercises } from "../../../checker/model/exercises.js";
import { drillLines } from "../../../src/drill/drill-lines.js";

/** A target our own code only just meets is one a learner cannot: the lab's versions keep a tenth of it spare. */
const withRoomToSpare = (target: number) => Math.floor(target * 0.9);

const paths = labPaths();
const exercises = loadExercises(paths.exercises, paths.solutions);

test("the lab has exercises to check (this test would pass on none)", () => {
  expect(exercises.length).toBeGreaterThanOrEqual(3);
});

test.each(exercises.map((e) => [e.id, e] as const))(
  "%s: its solution and its tier-3 reference meet the drill's line target with room to spare",
  (_id, exercise) => {
    const files = [exercise.solution, exercise.references[3]].filter((file): file is string => file !== undefined && existsSync(file));
    expect(files.length, "a solution and a tier-3 reference to measure").toBe(2);
    for (const file of files) {
      expect(drillLines(readFileSync(file, "utf8")), `${file} against a target of ${exercise.targetLines} lines`).toBeLessThanOrEqual(
        withRoomToSpare(exercise.targetLines),
      );
    }
  },
);
