/** Exercise 4's test loop: a first trip goes back marked is_error, a second one ends the run. */
import { afterAll, describe, expect, test } from "vitest";
import { provider, useScenario } from "../../checker/testing/index.js";
import { guardedRun, LOOP_WORLDS, markedResults, type Guard } from "../../exercises/04-loop-guard/support/index.js";

/** A guard that nudges on its `at`-th check and on every one after it. */
function nudgingFrom(at: number): Guard & { checks: number } {
  return {
    checks: 0,
    trips: 0,
    halted: false,
    check() {
      if (++this.checks < at) return null;
      this.trips += 1;
      return "plain words, no magic phrase";
    },
  };
}

afterAll(async () => (await provider()).close());

describe("guardedRun", () => {
  test.each(["loop-repeat", "loop-cycle", "loop-stall"] as const)("%s: the first nudge goes back marked is_error and the model answers", async (scenario) => {
    const session = await useScenario(scenario);

    const outcome = await guardedRun(session, nudgingFrom(2), LOOP_WORLDS[scenario]());

    expect(outcome).toEqual({ ended: "answer", text: expect.stringContaining("going round in circles"), nudges: ["plain words, no magic phrase"] });
    expect(markedResults(session)).toEqual(["plain words, no magic phrase"]);
  });

  test("a stubborn model is ended by the second trip, with the guard's sentence as the report", async () => {
    const session = await useScenario("loop-repeat", { options: { stubborn: 1 } });
    const guard = nudgingFrom(3);

    const outcome = await guardedRun(session, guard, LOOP_WORLDS["loop-repeat"]());

    expect(outcome).toEqual({ ended: "partial", text: "plain words, no magic phrase", nudges: ["plain words, no magic phrase"] });
    expect(guard.checks).toBe(4);
  });

  test("the worlds show the guard what each shape needs: moving, frozen, and patched with flat progress", () => {
    const repeat = LOOP_WORLDS["loop-repeat"]();
    repeat.run("search_docs", { q: "x" });
    const first = JSON.stringify(repeat.snapshot());
    repeat.run("search_docs", { q: "x" });
    expect(JSON.stringify(repeat.snapshot())).not.toBe(first);

    const cycle = LOOP_WORLDS["loop-cycle"]();
    const before = JSON.stringify(cycle.snapshot());
    cycle.run("write_file", { path: "config.yaml", content: cycle.run("read_file", { path: "config.yaml" }) });
    expect(JSON.stringify(cycle.snapshot())).toBe(before);

    const stall = LOOP_WORLDS["loop-stall"]();
    stall.run("edit_file", { patch: "attempt 1" });
    expect(stall.snapshot()).toEqual({ patches: ["attempt 1"] });
    expect(stall.progress?.()).toBe(stall.progress?.());
  });
});
