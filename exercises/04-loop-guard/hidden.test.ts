import { describe, expect, test } from "vitest";
import { LoopGuard } from "lab:impl";
import { guardedRun, LOOP_WORLDS, markedResults } from "lab:support";
import { useScenario } from "lab:test";

type Call = [tool: string, args: unknown, state: unknown, progress?: number];

/** Feeds the calls to the guard in order and returns what each check answered. */
const run = (guard: LoopGuard, calls: Call[]): Array<string | null> => calls.map(([tool, args, state, progress]) => guard.check(tool, args, state, progress));

const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
const nulls = (n: number) => times(n, () => null);

const REPEAT = /identical/i;
const CYCLE = /cycling/i;
const STALL = /no measurable progress/i;
const CAP = /step cap/i;

/** Shape A: one call again and again; the state moves, so only the call can repeat. */
const shapeA = (n: number): Call[] => times(n, (i) => ["search_docs", { q: "rate limit" }, { step: i }]);

describe("04 loop guard: the three shapes", () => {
  test("shape A: the same call is quiet three times and nudged on the 4th, naming the tool (repeat-at-3 bug)", () => {
    const out = run(new LoopGuard(), shapeA(4));

    expect(out.slice(0, 3), "calls 1-3 are allowed: the comparison is >, not >=").toEqual(nulls(3));
    expect(out[3]).toMatch(REPEAT);
    expect(out[3], "the nudge says which call repeats").toContain("search_docs");
  });

  test("a loop that goes on after its nudge is nudged again on its very next step: counts are never reset (resets-after-nudge bug)", () => {
    const repeated = run(new LoopGuard(), shapeA(5));
    expect(repeated[3]).toMatch(REPEAT);
    expect(repeated[4], "the 5th identical call").toMatch(REPEAT);
  });

  test("shape B: read/write taking turns on a frozen state trips the cycle detector on the 3rd step (no-cycle-detector bug)", () => {
    const frozen = { "config.yaml": "retries: 3\n" };
    const out = run(new LoopGuard(), [
      ["read_file", { path: "config.yaml" }, frozen],
      ["write_file", { path: "config.yaml" }, frozen],
      ["read_file", { path: "config.yaml" }, frozen],
    ]);

    expect(out.slice(0, 2)).toEqual(nulls(2));
    expect(out[2], "no call has repeated 4 times, only the state 3 times").toMatch(CYCLE);
  });

  test("shape C: new calls and states with progress stuck at 3 are nudged on the 8th step (stall-at-7 bug)", () => {
    const out = run(new LoopGuard(), times(8, (i) => [`edit_${i}`, { i }, { step: i }, 3]));

    expect(out.slice(0, 7), "six steps without improvement are allowed, and the first step sets the best").toEqual(nulls(7));
    expect(out[7]).toMatch(STALL);
  });

  test("a progress value of 0 is a value: stuck at 0, the 8th step is nudged (truthy-progress bug)", () => {
    const out = run(new LoopGuard(), times(8, (i) => [`fix_${i}`, { i }, { step: i }, 0]));

    expect(out[7]).toMatch(STALL);
  });

  test("progress see-sawing 2, 1, 2, 1 never beats its best, so the stall is caught by the 8th step (stall-vs-last bug)", () => {
    const out = run(new LoopGuard(), times(8, (i) => [`step_${i}`, { i }, { step: i }, i % 2 === 0 ? 2 : 1]));

    expect(out[7], "a rise back to an earlier value is not an improvement").toMatch(STALL);
  });
});

describe("04 loop guard: no false alarms", () => {
  test("twelve varied, improving steps: no nudge, no trip; an improvement part-way restarts the count (no-progress-reset bug)", () => {
    const improving = new LoopGuard();
    expect(run(improving, times(12, (i) => [`tool_${i}`, { i }, { step: i }, i]))).toEqual(nulls(12));
    expect(improving.trips).toBe(0);

    // Flat at 3 for five steps, 4 on the 6th, flat again: seven flat steps after the 6th is the 13th.
    const out = run(new LoopGuard(), times(13, (i) => [`edit_${i}`, { i }, { step: i }, i < 5 ? 3 : 4]));
    expect(out[7], "the 8th step is only the 2nd since the improvement").toBeNull();
    expect(out[12]).toMatch(STALL);
  });

  test("twenty varied steps without a progress value: no nudge (missing-progress-stalls bug)", () => {
    const guard = new LoopGuard();

    expect(run(guard, times(20, (i) => [`tool_${i}`, { i }, { step: i }]))).toEqual(nulls(20));
    expect(guard.trips).toBe(0);

    // Six flat steps, then steps with no value: those leave the count at six, so nothing is nudged.
    const flatThenNone: Call[] = times(12, (i) => (i < 7 ? [`edit_${i}`, { i }, { step: i }, 3] : [`read_${i}`, { i }, { step: i }]));
    expect(run(new LoopGuard(), flatThenNone)).toEqual(nulls(12));
  });

  test("the same arguments for four different tools are four calls (args-only bug)", () => {
    const tools = ["read_file", "stat", "open", "checksum"];

    expect(run(new LoopGuard(), tools.map((tool, i) => [tool, { path: "config.yaml" }, { step: i }]))).toEqual(nulls(4));
  });

  test("nested objects with different contents are different calls (shallow-sort bug)", () => {
    const out = run(new LoopGuard(), times(4, (i) => ["list_invoices", { filter: { month: i % 2 === 0 ? "March" : "May" } }, { step: i }]));

    expect(out, "March twice and May twice: no call was made four times").toEqual(nulls(4));

    const looped = (name: string) => {
      const node: Record<string, unknown> = { name };
      node["self"] = node;
      return node;
    };
    const pairs: Array<[string, unknown, unknown]> = [
      ["numbers", { page: 1 }, { page: 2 }],
      ["objects that hold a null", { month: "March", filter: null }, { month: "May", filter: null }],
      ["BigInts", { rows: 12n }, { rows: 13n }],
      ["an array and an object with its indices as keys", { items: ["x", "y"] }, { items: { 0: "x", 1: "y" } }],
      ["two objects that contain themselves", { root: looped("a") }, { root: looped("b") }],
    ];
    for (const [what, a, b] of pairs) {
      expect(run(new LoopGuard(), times(4, (i) => ["fetch", i % 2 === 0 ? a : b, { step: i }])), `${what}, twice each`).toEqual(nulls(4));
    }
  });
});

describe("04 loop guard: fingerprints, the cap, the options", () => {
  test("the same arguments in another key order, top level and nested, are one call (key-order bug)", () => {
    const orders = [
      { q: "rate limit", opts: { limit: 5, lang: "en" } },
      { opts: { lang: "en", limit: 5 }, q: "rate limit" },
      { q: "rate limit", opts: { lang: "en", limit: 5 } },
      { opts: { limit: 5, lang: "en" }, q: "rate limit" },
    ];

    const out = run(new LoopGuard(), orders.map((args, i) => ["search_docs", args, { step: i }]));

    expect(out[3], "the 4th sighting of one call").toMatch(REPEAT);

    // One object in two places holds what two equal copies hold: the same arguments.
    const shared = { lang: "en" };
    const copies = run(new LoopGuard(), times(4, (i) => ["search_docs", i % 2 === 0 ? { a: shared, b: shared } : { a: { lang: "en" }, b: { lang: "en" } }, { step: i }]));
    expect(copies[3], "a shared object and two copies, twice each").toMatch(REPEAT);
  });

  test("a call made again with other calls in between still counts: A, B, A, B, A, B, A trips on the 7th (consecutive-only bug)", () => {
    const out = run(new LoopGuard(), times(7, (i) => (i % 2 === 0 ? ["search_docs", { q: "rate limit" }, { step: i }] : ["fetch_page", { page: i }, { step: i }])));

    expect(out[6]).toMatch(REPEAT);
  });

  test("values JSON cannot encode, a BigInt or an object that contains itself, do not throw (unencodable-throws bug)", () => {
    const guard = new LoopGuard();
    const loop: Record<string, unknown> = { name: "node" };
    loop["self"] = loop;

    expect(guard.check("count_rows", { table: "orders", above: 10n }, { rows: 12n })).toBeNull();
    expect(guard.check("walk_tree", { root: loop }, { tree: loop })).toBeNull();
    const locked = {
      get secret(): string {
        throw new Error("no access");
      },
    };
    expect(guard.check("read_vault", { vault: locked }, { step: 3 }), "a getter that throws").toBeNull();
    expect(guard.steps).toBe(3);
  });

  test("the step cap sets halted and returns its reason, and never throws (cap-throws bug)", () => {
    const guard = new LoopGuard({ maxSteps: 2 });

    expect(run(guard, times(2, (i) => [`t${i}`, {}, { s: i }]))).toEqual(nulls(2));
    expect(guard.halted).toBe(false);
    expect(guard.check("t2", {}, { s: 2 })).toMatch(CAP);
    expect(guard.halted).toBe(true);
    expect(guard.check("t3", {}, { s: 3 }), "a later call is answered too").toMatch(CAP);
    expect(guard.steps).toBe(4);
  });

  test("the step cap is not a trip: a capped run of varied calls reports trips 0 (cap-counts-as-trip bug)", () => {
    const guard = new LoopGuard({ maxSteps: 3 });

    for (let i = 0; i < 6; i++) {
      try {
        guard.check(`t${i}`, {}, { s: i });
      } catch {
        // A throwing cap is the cap-throws test's business; this one judges trips only.
      }
    }

    expect(guard.halted).toBe(true);
    expect(guard.trips, "trips counts nudges from the loop detectors only").toBe(0);
  });

  test("options given in part keep the other defaults: { maxSteps: 100 } trips on the 4th, { repeat: 5 } on the 6th (partial-options bug)", () => {
    expect(run(new LoopGuard({ maxSteps: 100 }), shapeA(4))[3]).toMatch(REPEAT);

    const five = run(new LoopGuard({ repeat: 5 }), shapeA(6));
    expect(five[3], "repeat: 5 allows a 4th identical call").toBeNull();
    expect(five[5]).toMatch(REPEAT);
  });
});

// Wired into exercise 1's loop. The loop is the test's (guardedRun in lab:test): on a
// first trip it sends the guard's sentence back as the tool's result, marked is_error,
// which is what makes the scripted model change course.

const SCENARIOS = ["loop-repeat", "loop-cycle", "loop-stall"] as const;

describe("04 loop guard: wired into the loop", () => {
  test("each shape's first trip travels back as the tool result and the model changes course (halt-first bug)", async () => {
    for (const scenario of SCENARIOS) {
      const session = await useScenario(scenario);
      const guard = new LoopGuard();

      const outcome = await guardedRun(session, guard, LOOP_WORLDS[scenario]());

      expect(outcome.ended, `${scenario}: the run ends with the model's answer, not a halt`).toBe("answer");
      expect(outcome.text).toContain("going round in circles");
      expect(outcome.nudges, `${scenario}: one nudge went back`).toHaveLength(1);
      expect(markedResults(session), `${scenario}: the nudge reached the model as a tool result`).toEqual(outcome.nudges);
      expect(guard.halted).toBe(false);
    }
  });

  test("a model that ignores its nudge is stopped by the second trip with a partial report, long before the step cap (no-trip-count bug)", async () => {
    // Two shapes are enough to judge what follows a trip; the stall takes 9 calls to get there.
    for (const scenario of ["loop-repeat", "loop-cycle"] as const) {
      const session = await useScenario(scenario, { options: { stubborn: 1 } });
      const guard = new LoopGuard();

      const outcome = await guardedRun(session, guard, LOOP_WORLDS[scenario]());

      expect(outcome.ended, `${scenario}: a stubborn loop ends in a partial report`).toBe("partial");
      expect(outcome.text.length, "the report carries the guard's reason").toBeGreaterThan(0);
      // Both shapes trip by their 4th step, and the next trip ends the run; the cap is 40.
      expect(guard.steps, `${scenario}: checks made before the run ended`).toBeLessThanOrEqual(12);
    }
  });
});
