import { cleanup, render } from "ink-testing-library";
import { afterEach, expect, test } from "vitest";
import type { Exercise } from "../../../checker/model/exercises.js";
import type { ExerciseTable } from "../../../src/progress/exercise-table.js";
import { ExercisePicker } from "../../../src/screen/exercise-picker.js";
import { until } from "../../support/until.js";

afterEach(() => cleanup());

const ex = (number: number, title: string) => ({ id: `0${number}-x`, number, title }) as Exercise;
const table: ExerciseTable = {
  hasDrills: true,
  rows: [
    { exercise: ex(1, "The tool-calling loop"), status: "done", bestDrill: 425, nextStep: "" },
    { exercise: ex(2, "Retry"), status: "started", bestDrill: null, nextStep: "lab start 2 (stuck? lab hint 2)" },
    { exercise: ex(3, "Budget"), status: "untouched", bestDrill: null, nextStep: "lab start 3" },
  ],
};

test("starts on the next exercise to do; arrows move; enter chooses", async () => {
  let chosen: number | null | undefined;
  const ui = render(<ExercisePicker table={table} onChoose={(n) => (chosen = n)} />);
  expect(ui.lastFrame()).toMatchInlineSnapshot(`
    "   1  The tool-calling loop  done          7:05
    ›  2  Retry                  started             lab start 2 (stuck? lab hint 2)
       3  Budget                 untouched           lab start 3

    ↑↓ choose · enter start · q quit"
  `);
  ui.stdin.write("\u001B[B");
  await until(() => ui.lastFrame()!.includes("›  3  Budget"), "the highlight moves down");
  ui.stdin.write("\r");
  await until(() => chosen !== undefined, "a choice");
  expect(chosen).toBe(3);
});

test("q leaves without choosing", async () => {
  let chosen: number | null | undefined;
  const ui = render(<ExercisePicker table={table} onChoose={(n) => (chosen = n)} />);
  ui.stdin.write("q");
  await until(() => chosen !== undefined, "a choice");
  expect(chosen).toBeNull();
});
