import { describe, expect, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import { renderGradescope } from "../../../src/grade/format/gradescope.js";
import { copyGroups, drillSummaries, gridRows, passRates, scoreBins } from "../../../src/grade/format/html/data.js";
import { render } from "../../../src/grade/format/index.js";
import { renderJunit, xmlText } from "../../../src/grade/format/junit.js";
import { renderMarkdown } from "../../../src/grade/format/md.js";
import type { GradeRecord } from "../../../src/grade/record.js";
import { gradescopeProblems } from "./gradescope-schema.js";
import { record, reportOf } from "./records.js";
import { PATHS } from "./support.js";

const exercises = loadExercises(PATHS.exercises, PATHS.solutions);
const tests3 = (failed: string[], message = "expected 5 to be -5") =>
  ["adds two numbers (off-by-one bug)", "adds negative numbers (off-by-one bug)", "asks the model to echo the sum (no-echo bug)"].map((name) =>
    failed.includes(name) ? { name, status: "fail" as const, message } : { name, status: "pass" as const, message: null },
  );
const adder = (learner: string, failed: string[], extra: Partial<GradeRecord> = {}) =>
  record(learner, "01-adder", { state: failed.length ? "fail" : "pass", passed: 3 - failed.length, total: 3, tests: tests3(failed), ms: 1500, ...extra });
const missing = (learner: string, exercise: string) =>
  record(learner, exercise, { state: "missing", passed: 0, total: 0, tests: [], ms: null, reason: `No file ${learner}/${exercise}.ts.` });
const lab = { exercises };

describe("junit", () => {
  test("a testsuite per learner × exercise, a testcase per hidden test, the bug's sentence as the failure's message", () => {
    const report = reportOf(
      [
        adder("ben", ["adds negative numbers (off-by-one bug)"], { peeks: { hintsShown: 2, solution: null, tier3BeforePassing: false, drills: [] } }),
        missing("ben", "02-greeter"),
      ],
      lab,
    );
    expect(renderJunit(report)).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="harness-lab class report (lab 9.9.9)" tests="4" failures="2" errors="0" timestamp="2026-03-01T10:00:00.000Z">',
        '  <testsuite name="ben/01-adder" tests="3" failures="1" errors="0" skipped="0" time="1.500">',
        "    <properties>",
        '      <property name="learner" value="ben"/>',
        '      <property name="exercise" value="01-adder"/>',
        '      <property name="file" value="ben/01-adder.ts"/>',
        '      <property name="state" value="fail"/>',
        '      <property name="peeks" value="2 hints"/>',
        "    </properties>",
        '    <testcase classname="ben.01-adder" name="adds two numbers (off-by-one bug)"/>',
        '    <testcase classname="ben.01-adder" name="adds negative numbers (off-by-one bug)">',
        '      <failure type="off-by-one" message="Adds one too many, so every sum is wrong.">expected 5 to be -5</failure>',
        "    </testcase>",
        '    <testcase classname="ben.01-adder" name="asks the model to echo the sum (no-echo bug)"/>',
        "  </testsuite>",
        '  <testsuite name="ben/02-greeter" tests="1" failures="1" errors="0" skipped="0" time="0.000">',
        "    <properties>",
        '      <property name="learner" value="ben"/>',
        '      <property name="exercise" value="02-greeter"/>',
        '      <property name="file" value="ben/02-greeter.ts"/>',
        '      <property name="state" value="missing"/>',
        "    </properties>",
        '    <testcase classname="ben.02-greeter" name="02-greeter">',
        '      <failure type="missing" message="No file ben/02-greeter.ts.">No file ben/02-greeter.ts.</failure>',
        "    </testcase>",
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
  });

  test("a run that did not finish is an error; learner-made text is escaped and stripped of what XML cannot hold", () => {
    const timedOut = record("ada", "01-adder", { state: "timeout", passed: 0, total: 0, tests: [], reason: "The run did not finish in 3 s." });
    expect(renderJunit(reportOf([timedOut], lab))).toContain(
      '<error type="timeout" message="The run did not finish in 3 s.">The run did not finish in 3 s.</error>',
    );
    expect(xmlText('a<b & "c" \u0000\u001b[31m')).toBe("a&lt;b &amp; &quot;c&quot; [31m");
  });
});

describe("gradescope", () => {
  const one = [adder("ada", ["adds negative numbers (off-by-one bug)"]), record("ada", "02-greeter", { ms: 500 })];

  test("partial credit: a test per hidden test worth its share of the exercise's weight; the total and the time", () => {
    const results = JSON.parse(renderGradescope(reportOf(one, { ...lab, grading: { weights: { "1": 30 }, partialCredit: true } })));
    expect(results.score).toBe(30);
    expect(results.execution_time).toBe(2);
    expect(results.output).toBe("1 of 2 exercises pass every hidden test: 30 of 40 points (harness-lab 9.9.9).");
    expect(results.tests.slice(0, 3)).toEqual([
      {
        name: "01-adder: adds two numbers (off-by-one bug)",
        number: "1.1",
        score: 10,
        max_score: 10,
        status: "passed",
        output: "",
        tags: ["01-adder", "off-by-one"],
        visibility: "visible",
      },
      {
        name: "01-adder: adds negative numbers (off-by-one bug)",
        number: "1.2",
        score: 0,
        max_score: 10,
        status: "failed",
        output: "expected 5 to be -5\nThe bug this test catches: Adds one too many, so every sum is wrong.",
        tags: ["01-adder", "off-by-one"],
        visibility: "visible",
      },
      {
        name: "01-adder: asks the model to echo the sum (no-echo bug)",
        number: "1.3",
        score: 10,
        max_score: 10,
        status: "passed",
        output: "",
        tags: ["01-adder", "no-echo"],
        visibility: "visible",
      },
    ]);
    expect(results.tests.slice(3).map((t: { max_score: number; score: number }) => [t.score, t.max_score])).toEqual([
      [5, 5],
      [5, 5],
    ]);
  });

  test("all or nothing: one test per exercise worth all its points, listing what failed", () => {
    const results = JSON.parse(renderGradescope(reportOf(one, { ...lab, grading: { weights: {}, partialCredit: false } })));
    expect(results.score).toBe(10);
    expect(results.tests.map((t: { name: string; score: number; max_score: number; status: string }) => [t.name, t.score, t.max_score, t.status])).toEqual([
      ["01-adder: every hidden test (3) must pass for the points", 0, 10, "failed"],
      ["02-greeter: every hidden test (2) must pass for the points", 10, 10, "passed"],
    ]);
    expect(results.tests[0].output).toBe(
      "adds negative numbers (off-by-one bug): expected 5 to be -5\nThe bug this test catches: Adds one too many, so every sum is wrong.",
    );
  });

  test("copy flags and peeks are one hidden test worth nothing; a missing file earns nothing and says why", () => {
    const flagged = [adder("ada", [], { fingerprint: "x" }), missing("ada", "02-greeter")];
    const report = reportOf(flagged, lab);
    report.copies = [{ key: "ada/01-adder", learner: "ada", exercise: "01-adder", number: 1, matches: [{ kind: "solution", name: "solution" }] }];
    const results = JSON.parse(renderGradescope(report));
    expect(results.score).toBe(10);
    expect(results.tests.at(-2)).toMatchObject({
      name: "02-greeter",
      score: 0,
      max_score: 10,
      output: "The tests could not run, so this exercise earns no points: No file ada/02-greeter.ts.",
    });
    expect(results.tests.at(-1)).toEqual({
      name: "Notes for the instructor (never shown to the learner, never scored)",
      number: "0.1",
      score: 0,
      max_score: 0,
      status: "passed",
      output: "01-adder: the file matches the reference solution.",
      tags: ["notes"],
      visibility: "hidden",
    });
  });
});

describe("md", () => {
  test("the misconception table, most common first with each bug's sentence; an exercise nobody handed in is one line", () => {
    const records = [
      adder("ada", ["adds negative numbers (off-by-one bug)"]),
      adder("ben", ["adds two numbers (off-by-one bug)", "asks the model to echo the sum (no-echo bug)"]),
      adder("cy", ["adds negative numbers (off-by-one bug)"]),
      ...["ada", "ben", "cy"].map((l) => missing(l, "02-greeter")),
    ];
    const md = renderMarkdown(reportOf(records, lab));
    const section = (name: string) => md.split(`## ${name}\n\n`)[1]!.split("\n\n")[0]!;
    expect(section("Misconceptions")).toBe(
      [
        "| learners | exercise | bug | what it breaks |",
        "| ---: | --- | --- | --- |",
        "| 3 | 01-adder | off-by-one | Adds one too many, so every sum is wrong. |",
        "| 1 | 01-adder | no-echo | Never talks to the model, so nothing crosses the wire. |",
      ].join("\n"),
    );
    expect(md).toContain("\nNobody handed in 02-greeter: no row is shown for it.\n");
    expect(
      section("Results")
        .split("\n")
        .filter((line) => line.includes("02-greeter")),
    ).toEqual([]);
    expect(md.split("\n").slice(0, 3)).toEqual(["# harness-lab class report", "", "3 learners · 2 exercises · 2026-03-01 10:00 UTC · lab 9.9.9"]);
  });
});

describe("the data behind the HTML report's charts", () => {
  const records = [
    adder("ada", []),
    adder("ben", ["adds negative numbers (off-by-one bug)"], { drill: { attempts: 2, passed: 1, bestSeconds: 300, bestLines: 9 } }),
    adder("cy", [], { drill: { attempts: 1, passed: 1, bestSeconds: 100, bestLines: 5 } }),
    record("ada", "02-greeter", { state: "error", passed: 0, total: 0, tests: [], reason: "crashed" }),
    missing("ben", "02-greeter"),
    record("cy", "02-greeter", { drill: { attempts: 3, passed: 0, bestSeconds: null, bestLines: null } }),
  ];
  const report = reportOf(records, lab);

  test("the grid: a cell per learner × exercise with its share passed, linked when it did not pass", () => {
    expect(gridRows(report).map((row) => [row.learner, row.cells.map((c) => [c.exercise, c.share, c.anchor])])).toEqual([
      [
        "ada",
        [
          ["01-adder", 1, null],
          ["02-greeter", null, "f-ada_2F02-greeter"],
        ],
      ],
      [
        "ben",
        [
          ["01-adder", 2 / 3, "f-ben_2F01-adder"],
          ["02-greeter", null, "f-ben_2F02-greeter"],
        ],
      ],
      [
        "cy",
        [
          ["01-adder", 1, null],
          ["02-greeter", 1, null],
        ],
      ],
    ]);
  });

  test("pass rates per exercise, and scores in ten bins (100% in the last)", () => {
    expect(passRates(report)).toEqual([
      { exercise: "01-adder", passed: 2, learners: 3, rate: 2 / 3 },
      { exercise: "02-greeter", passed: 1, learners: 3, rate: 1 / 3 },
    ]);
    // ada 10 of 20 points, ben 20/3 of 20, cy 20 of 20.
    expect(scoreBins(report).map((b) => b.learners)).toEqual([0, 0, 0, 1, 0, 1, 0, 0, 0, 1]);
    expect(scoreBins(report)[9]).toEqual({ from: 90, to: 100, learners: 1 });
  });

  test("drills per exercise: who drilled, attempts, fastest and median best time, median lines, the target", () => {
    expect(drillSummaries(report)).toEqual([
      { exercise: "01-adder", targetLines: 6, learners: 2, attempts: 3, fastestSeconds: 100, medianSeconds: 200, medianLines: 7 },
      {
        exercise: "02-greeter",
        targetLines: exercises[1]!.targetLines,
        learners: 1,
        attempts: 3,
        fastestSeconds: null,
        medianSeconds: null,
        medianLines: null,
      },
    ]);
  });

  test("copies on the page: one row per exercise × program, the largest group first", () => {
    const flagged = reportOf(
      [
        record("ada", "01-adder", { fingerprint: "P" }),
        record("ben", "01-adder", { fingerprint: "Q" }),
        record("cy", "01-adder", { fingerprint: "P" }),
        record("dee", "01-adder", { fingerprint: "Q" }),
        record("eve", "01-adder", { fingerprint: "Q" }),
      ],
      lab,
    );
    expect(copyGroups(flagged)).toEqual([
      { exercise: "01-adder", known: [], learners: ["ben", "dee", "eve"] },
      { exercise: "01-adder", known: [], learners: ["ada", "cy"] },
    ]);
  });

  test("the page: one file with no script and no outside reference, every section, the charts as inline SVG", async () => {
    const html = await render(report, "html");
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(|src=|href="(?!#)/i);
    for (const id of ["standing", "map", "grid", "drills", "copies", "peeks", "failures"]) expect(html).toContain(`<section id="${id}">`);
    expect(html.match(/<svg/g)).toHaveLength(4);
    expect(html).toContain('<div class="failure" id="f-ben_2F01-adder">');
    expect(html).toContain('<a href="#f-ben_2F01-adder">2/3</a>');
  });
});

test("the Gradescope schema the end-to-end test checks against refuses what Gradescope does not document", () => {
  expect(gradescopeProblems({ score: 1, tests: [{ name: "a", score: 1, max_score: 1, status: "passed", visibility: "visible" }] })).toEqual([]);
  expect(gradescopeProblems({ score: "1", grade: 3, tests: [{ status: "ok", visibility: "secret", max_score: 1 }] })).toEqual([
    'results.score has the wrong type or value: "1"',
    "results.grade is not a documented field",
    'tests[0].status has the wrong type or value: "ok"',
    'tests[0].visibility has the wrong type or value: "secret"',
  ]);
  expect(gradescopeProblems({ tests: [{ name: "a" }] })).toEqual(["no score: neither a total nor one per test"]);
});
