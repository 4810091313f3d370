import { describe, expect, test } from "vitest";
import { exercismResults } from "../../../src/grade/exercism.js";
import { failing, record } from "./records.js";

describe("results.json in exercism's shape", () => {
  test("every exercise passed: status pass, one entry per test, task_id is the exercise number", () => {
    expect(exercismResults([record("ada", "02-greeter"), record("ada", "01-adder")])).toEqual({
      version: 3,
      status: "pass",
      message: null,
      tests: [
        { name: "01-adder: first", status: "pass", message: null, task_id: 1 },
        { name: "01-adder: second", status: "pass", message: null, task_id: 1 },
        { name: "02-greeter: first", status: "pass", message: null, task_id: 2 },
        { name: "02-greeter: second", status: "pass", message: null, task_id: 2 },
      ],
    });
  });

  test("a failing test fails the learner; an exercise that could not run is one error entry with its reason", () => {
    const results = exercismResults([
      failing("ben", "01-adder", ["second"]),
      record("ben", "02-greeter", { state: "timeout", passed: 0, total: 2, reason: "The run did not finish in 3 s.", tests: [] }),
    ]);
    expect(results.status).toBe("fail");
    expect(results.message).toBe("02-greeter: The run did not finish in 3 s.");
    expect(results.tests).toEqual([
      { name: "01-adder: first", status: "pass", message: null, task_id: 1 },
      { name: "01-adder: second", status: "fail", message: "second went wrong", task_id: 1 },
      { name: "02-greeter", status: "error", message: "The run did not finish in 3 s.", task_id: 2 },
    ]);
  });

  test("nothing could run at all: status error", () => {
    const results = exercismResults([record("eve", "01-adder", { state: "missing", passed: 0, total: 0, reason: "No file eve/01-adder.ts.", tests: [] })]);
    expect(results).toEqual({
      version: 3,
      status: "error",
      message: "01-adder: No file eve/01-adder.ts.",
      tests: [{ name: "01-adder", status: "error", message: "No file eve/01-adder.ts.", task_id: 1 }],
    });
  });
});
