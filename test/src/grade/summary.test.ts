import { describe, expect, test } from "vitest";
import { csvCell, renderCsv } from "../../../src/grade/format/csv.js";
import { render } from "../../../src/grade/format/index.js";
import { renderMarkdown } from "../../../src/grade/format/md.js";
import { renderTable } from "../../../src/grade/format/table.js";
import { summarise } from "../../../src/grade/summary.js";
import { failing, record } from "./records.js";

const records = [
  failing("ben", "02-greeter", ["second"], { ms: 80 }),
  record("ada", "01-adder", { bestDrillSeconds: 305 }),
  failing("ben", "01-adder", ["first", "second"], { ms: 1234 }),
  record("ada", "02-greeter", { bestDrillSeconds: 95, ms: 7, peeks: ["tier 3"] }),
  record("cy", "01-adder", { state: "missing", passed: 0, total: 0, reason: "No file cy/01-adder.ts.", ms: null, tests: [] }),
  record("cy", "02-greeter", { state: "timeout", passed: 0, total: 0, reason: "The run did not finish in 3 s.", ms: 3100, tests: [] }),
];
const summary = summarise(records);

describe("the summary", () => {
  test("rows by learner, then exercise number, whatever order the records came in", () => {
    expect(summary.rows.map((r) => `${r.learner}/${r.exercise}`)).toEqual([
      "ada/01-adder",
      "ada/02-greeter",
      "ben/01-adder",
      "ben/02-greeter",
      "cy/01-adder",
      "cy/02-greeter",
    ]);
    expect(summarise([...records].reverse())).toEqual(summary);
  });

  test("learner totals: exercises and tests passed, best drill per exercise", () => {
    expect(summary.learners).toEqual([
      {
        learner: "ada",
        exercisesPassed: 2,
        exercises: 2,
        testsPassed: 4,
        testsTotal: 4,
        drills: [
          { exercise: "01-adder", number: 1, seconds: 305 },
          { exercise: "02-greeter", number: 2, seconds: 95 },
        ],
        peeks: [{ exercise: "02-greeter", number: 2, peeks: ["tier 3"] }],
      },
      {
        learner: "ben",
        exercisesPassed: 0,
        exercises: 2,
        testsPassed: 1,
        testsTotal: 4,
        drills: [
          { exercise: "01-adder", number: 1, seconds: null },
          { exercise: "02-greeter", number: 2, seconds: null },
        ],
        peeks: [],
      },
      {
        learner: "cy",
        exercisesPassed: 0,
        exercises: 2,
        testsPassed: 0,
        testsTotal: 0,
        drills: [
          { exercise: "01-adder", number: 1, seconds: null },
          { exercise: "02-greeter", number: 2, seconds: null },
        ],
        peeks: [],
      },
    ]);
  });

  test("class totals: pass rate per exercise over every learner, and the tests failed most", () => {
    expect(summary.exercises.map((e) => [e.exercise, e.passed, e.learners, e.rate, e.states])).toEqual([
      ["01-adder", 1, 3, 1 / 3, { pass: 1, fail: 1, error: 0, missing: 1, timeout: 0 }],
      ["02-greeter", 1, 3, 1 / 3, { pass: 1, fail: 1, error: 0, missing: 0, timeout: 1 }],
    ]);
    expect(summary.mostFailed).toEqual([
      { exercise: "01-adder", test: "first", learners: 1 },
      { exercise: "01-adder", test: "second", learners: 1 },
      { exercise: "02-greeter", test: "second", learners: 1 },
    ]);
  });
});

describe("the formats", () => {
  test("table: one line a row, the why column says the first failing test or why nothing ran", () => {
    expect(renderTable(summary)).toBe(
      [
        "learner  exercise    passed  state    first failing test or reason      ms",
        "ada      01-adder    2/2     pass     -                                100",
        "ada      02-greeter  2/2     pass     -                                  7",
        "ben      01-adder    0/2     fail     first                           1234",
        "ben      02-greeter  1/2     fail     second                            80",
        "cy       01-adder    -       missing  No file cy/01-adder.ts.            -",
        "cy       02-greeter  -       timeout  The run did not finish in 3 s.  3100",
        "",
        "learner  exercises passed  tests passed  best drills       answer opened before passing",
        "ada      2/2               4/4           01 5:05, 02 1:35  02 tier 3",
        "ben      0/2               1/4           01 -, 02 -        -",
        "cy       0/2               0/0           01 -, 02 -        -",
        "",
        "exercise    passed  rate  fail  error  timeout  missing",
        "01-adder    1/3      33%  1     0      0        1",
        "02-greeter  1/3      33%  1     0      1        0",
        "",
        "most failed tests",
        "learners  exercise    test",
        "       1  01-adder    first",
        "       1  01-adder    second",
        "       1  02-greeter  second",
        "",
      ].join("\n"),
    );
  });

  test("table: a long or multi-line reason stays on its row, cut with an ellipsis", () => {
    const long = summarise([record("ada", "01-adder", { state: "error", passed: 0, total: 0, tests: [], reason: `line one\nline two ${"x".repeat(100)}` })]);
    const row = renderTable(long).split("\n")[1]!;
    expect(row).toMatch(/^ada {6}01-adder {2}- {7}error {2}line one line two x+… {2}100$/);
    expect(row.length).toBeLessThan(130);
  });

  test("csv: RFC 4180, one line a row, formula-looking text defused", () => {
    const csv = renderCsv(summarise([failing("ada", "01-adder", ["first"], { firstFailure: { test: "first", message: '=HYPERLINK("x"), "quoted"' } })]));
    expect(csv).toBe(
      'learner,exercise,number,state,passed,total,first_failing_test,detail,ms,best_drill_seconds,peeks\r\nada,01-adder,1,fail,1,2,first,"\'=HYPERLINK(""x""), ""quoted""",100,,\r\n',
    );
    expect(csvCell(null)).toBe("");
    expect(csvCell(-1)).toBe("-1");
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell("a\nb")).toBe('"a\nb"');
  });

  test("md: the same four parts as tables; pipes and markup in learner text are escaped", () => {
    const md = renderMarkdown(summarise([failing("ada", "01-adder", ["first"], { firstFailure: { test: "first", message: "a | b *c*" } })]));
    expect(md.split("\n").slice(0, 5)).toEqual([
      "## Results",
      "",
      "| learner | exercise | passed | state | first failing test | why | ms |",
      "| --- | --- | --- | --- | --- | --- | ---: |",
      "| ada | 01-adder | 1/2 | fail | first | a \\| b \\*c\\* | 100 |",
    ]);
    expect(md).toContain("## Learners");
    expect(md).toContain("## Exercises");
    expect(md).toContain("## Most failed tests");
  });

  test("json: the summary itself", () => {
    expect(JSON.parse(render(summary, "json"))).toEqual(JSON.parse(JSON.stringify(summary)));
  });
});
