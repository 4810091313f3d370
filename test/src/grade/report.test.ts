import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { labPaths } from "../../../checker/paths.js";
import { loadExercises } from "../../../checker/model/exercises.js";
import { copyFlags, copyText, referencePrints } from "../../../src/grade/copies/flags.js";
import { fingerprint } from "../../../src/grade/copies/fingerprint.js";
import { learnerNotes } from "../../../src/grade/learner-notes.js";
import { misconceptions } from "../../../src/grade/misconceptions.js";
import { steadyIds } from "../../../src/grade/outcome.js";
import { learnerScores, pointsOf } from "../../../src/grade/scoring.js";
import { failing, record, reportOf } from "./records.js";
import { tempDir } from "./support.js";

const BUGS = new Map([["01-adder", { "off-by-one": "Adds one too many.", "no-echo": "Never calls the model." }]]);
const named = (learner: string, failed: string[]) =>
  record(learner, "01-adder", {
    state: failed.length > 0 ? "fail" : "pass",
    passed: 3 - failed.length,
    total: 3,
    tests: ["sums (off-by-one bug)", "negatives (off-by-one bug)", "echoes (no-echo bug)"].map((name) =>
      failed.includes(name) ? { name, status: "fail" as const, message: "no" } : { name, status: "pass" as const, message: null },
    ),
  });

describe("the misconception map", () => {
  test("each named bug counts the learners whose failures point at it, once each, most common first, with its sentence", () => {
    const records = [
      named("cy", ["echoes (no-echo bug)"]),
      named("ada", ["sums (off-by-one bug)", "negatives (off-by-one bug)"]),
      named("ben", ["negatives (off-by-one bug)", "echoes (no-echo bug)"]),
      named("dee", ["echoes (no-echo bug)"]),
      named("eve", []),
      failing("fay", "01-adder", ["first"]),
    ];
    expect(misconceptions(records, BUGS)).toEqual([
      { exercise: "01-adder", number: 1, bug: "no-echo", sentence: "Never calls the model.", learners: ["ben", "cy", "dee"] },
      { exercise: "01-adder", number: 1, bug: "off-by-one", sentence: "Adds one too many.", learners: ["ada", "ben"] },
    ]);
  });

  test("a bug exercise.json does not explain has no sentence; a passing test points at nothing", () => {
    const r = record("ada", "02-greeter", { state: "fail", tests: [{ name: "greets (no-trim bug)", status: "fail", message: "x" }] });
    expect(misconceptions([r], BUGS)).toEqual([{ exercise: "02-greeter", number: 2, bug: "no-trim", sentence: null, learners: ["ada"] }]);
    expect(misconceptions([named("ada", [])], BUGS)).toEqual([]);
  });
});

describe("copy flags", () => {
  const refs = new Map([
    [
      "01-adder",
      {
        stub: "STUB",
        known: [
          { kind: "solution" as const, name: "solution", print: "SOL" },
          { kind: "tier 3" as const, name: "tier 3", print: "T3" },
          { kind: "alternative" as const, name: "loop", print: "ALT" },
        ],
      },
    ],
  ]);
  const r = (learner: string, print: string | null) => record(learner, "01-adder", { fingerprint: print });

  test("a file the same as a reference or a classmate's is flagged with everything it matches; the stub and an empty file are not", () => {
    const flags = copyFlags(
      [r("ada", "SOL"), r("ben", "SOL"), r("cy", "ALT"), r("dee", "MINE"), r("eve", "STUB"), r("fay", "STUB"), r("gus", null), r("hal", "T3")],
      refs,
    );
    expect(flags.map((f) => [f.learner, f.matches])).toEqual([
      [
        "ada",
        [
          { kind: "solution", name: "solution" },
          { kind: "learner", name: "ben" },
        ],
      ],
      [
        "ben",
        [
          { kind: "solution", name: "solution" },
          { kind: "learner", name: "ada" },
        ],
      ],
      ["cy", [{ kind: "alternative", name: "loop" }]],
      ["hal", [{ kind: "tier 3", name: "tier 3" }]],
    ]);
  });

  test("two learners with the same unknown file are flagged as each other's copies", () => {
    expect(copyFlags([r("ada", "X"), r("ben", "X"), r("cy", "Y")], refs).map((f) => [f.learner, f.matches.map((m) => m.name)])).toEqual([
      ["ada", ["ben"]],
      ["ben", ["ada"]],
    ]);
  });

  test("a flag in one line names three classmates and counts the rest", () => {
    const matches = [{ kind: "solution" as const, name: "solution" }, ...["b", "c", "d", "e", "f"].map((name) => ({ kind: "learner" as const, name }))];
    expect(copyText(matches)).toBe("the reference solution, b, c, d and 2 more learners");
    expect(
      copyText([
        { kind: "alternative", name: "loop" },
        { kind: "tier 3", name: "tier 3" },
      ]),
    ).toBe("alternative loop, the tier 3 reference");
  });

  test("the lab's own references for exercise 1: solution, tier 3 and each alternative have a fingerprint of their own", () => {
    const lab = labPaths();
    const one = loadExercises(lab.exercises, lab.solutions).find((e) => e.number === 1)!;
    const prints = referencePrints(one);
    expect(prints.known.map((k) => k.kind)).toEqual(["solution", "tier 3", ...one.alternatives.map(() => "alternative")]);
    expect(prints.known.every((k) => k.print !== null)).toBe(true);
    expect(new Set(prints.known.map((k) => k.print)).size).toBe(prints.known.length);
    expect(prints.stub).not.toBeNull();
  });

  test("flags never change a result or a score", () => {
    const records = [
      record("ada", "01-adder", { fingerprint: fingerprint("export const x = 1;\n") }),
      record("ben", "01-adder", { fingerprint: fingerprint("export const y = 1;\n") }),
    ];
    const report = reportOf(records);
    expect(report.copies.map((c) => c.learner)).toEqual(["ada", "ben"]);
    expect(report.scores).toEqual(learnerScores(records, report.grading));
    expect(report.rows.map((row) => row.state)).toEqual(["pass", "pass"]);
    expect(report.scores.map((s) => s.fraction)).toEqual([1, 1]);
  });
});

describe("scores from grading.weights and grading.partialCredit", () => {
  const grading = (partialCredit: boolean) => ({ weights: { "2": 30 }, partialCredit });
  const half = failing("ada", "02-greeter", ["second"]);

  test("partial credit: each hidden test earns its share of the exercise's points; the default weight is 10", () => {
    expect(pointsOf(half, grading(true))).toBe(15);
    expect(pointsOf(failing("ada", "01-adder", ["second"]), grading(true))).toBe(5);
  });

  test("all or nothing: only a fully passing exercise earns its points", () => {
    expect(pointsOf(half, grading(false))).toBe(0);
    expect(pointsOf(record("ada", "02-greeter"), grading(false))).toBe(30);
  });

  test("a run that did not finish earns nothing, whatever passed before it stopped", () => {
    const timedOut = record("ada", "02-greeter", { state: "timeout", passed: 1, reason: "too slow" });
    expect(pointsOf(timedOut, grading(true))).toBe(0);
    expect(pointsOf(record("ada", "02-greeter", { state: "missing", passed: 0, total: 0, tests: [] }), grading(true))).toBe(0);
  });

  test("a learner's score is their points of the points their exercises are worth", () => {
    expect(learnerScores([half, record("ada", "01-adder")], grading(true))).toEqual([{ learner: "ada", points: 25, maxPoints: 40, fraction: 25 / 40 }]);
  });
});

describe("the report", () => {
  test("an exercise nobody handed in is named once; one somebody did is not", () => {
    const missing = (learner: string) => record(learner, "02-greeter", { state: "missing", passed: 0, total: 0, tests: [], reason: "No file." });
    const report = reportOf([record("ada", "01-adder"), missing("ada"), failing("ben", "01-adder", ["first"]), missing("ben")]);
    expect(report.unsubmitted).toEqual(["02-greeter"]);
    expect(reportOf([record("ada", "02-greeter"), missing("ben")]).unsubmitted).toEqual([]);
  });

  test("the provider's random message and request ids are one id in results, so the same file says the same thing twice", () => {
    const body = '529 {"type":"error","request_id":"req_01dGZCJ8B7ak5KOaJIV9AodD"} after msg_01Fftp3YgAnCXSZ57Z0vMNU9';
    expect(steadyIds(body)).toBe('529 {"type":"error","request_id":"req_01…"} after msg_01…');
    expect(steadyIds("toolu_01Fftp3YgAnCXSZ57Z0vMNU9 stays")).toBe("toolu_01Fftp3YgAnCXSZ57Z0vMNU9 stays");
  });
});

describe("what a learner's .lab/ says", () => {
  test("drills: attempts, passes, the best time with nothing opened and its lines; peeks: hints, the solution, tier 3 before passing, peeked drills (a pasted drill is no best)", () => {
    const dir = tempDir("notes");
    mkdirSync(join(dir, ".lab"));
    const drills = [
      { exercise: 1, seconds: 300, passed: true, lines: 9 },
      { exercise: 1, seconds: 200, passed: true, lines: 8 },
      { exercise: 1, seconds: 90, passed: true, peeked: true, peeks: ["hint", "tier 1"] },
      { exercise: 1, seconds: 60, passed: false },
      // Green faster than it could be typed: pasted, so no best (src/drill/targets.ts).
      { exercise: 1, seconds: 30, passed: true, lines: 8, pasted: true },
    ];
    writeFileSync(join(dir, ".lab/drills.jsonl"), `${drills.map((d) => JSON.stringify(d)).join("\n")}\nnot a drill\n`);
    const progress = {
      version: 1,
      exercises: {
        "01-adder": {
          hintsShown: 2,
          solutionSeenAt: "2026-03-01T10:00:00.000Z",
          solutionForcedAt: "2026-03-01T10:00:00.000Z",
          tier3ForcedAt: "2026-03-01T09:00:00.000Z",
        },
      },
    };
    writeFileSync(join(dir, ".lab/progress.json"), JSON.stringify(progress));
    const notes = learnerNotes(dir);
    expect(notes({ number: 1, id: "01-adder" })).toEqual({
      bestDrillSeconds: 200,
      drill: { attempts: 5, passed: 4, bestSeconds: 200, bestLines: 8 },
      peeks: { hintsShown: 2, solution: "before passing", tier3BeforePassing: true, drills: [["hint", "tier 1"]] },
    });
    expect(notes({ number: 2, id: "02-greeter" })).toEqual({ bestDrillSeconds: null, drill: null, peeks: null });
    expect(learnerNotes(tempDir("no-notes"))({ number: 1, id: "01-adder" })).toEqual({ bestDrillSeconds: null, drill: null, peeks: null });
  });
});
