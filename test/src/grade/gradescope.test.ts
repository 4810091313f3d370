/**
 * examples/gradescope/run_autograder run as Gradescope runs it, in a folder laid out like
 * /autograder (source/ with the zip's contents and the lab as source/lab, submission/,
 * results/), for a passing, a failing and a hostile submission of exercise 1.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { labPaths } from "../../../checker/paths.js";
import { loadExercises } from "../../../checker/model/exercises.js";
import { GRADE_ERRORS } from "../../../src/grade/messages.js";
import { gradescopeProblems } from "./gradescope-schema.js";
import { classCopy, declaredTests, gradeHere, ROOT, tempDir } from "./support.js";
import { labCheckout } from "./workflow.js";

const EXAMPLE = join(ROOT, "examples/gradescope");
const lab = labPaths();
const one = loadExercises(lab.exercises, lab.solutions).find((e) => e.number === 1)!;
/** The instructor's grading settings, in the zip's copy of the lab. */
const CONFIG = `import { defineConfig } from "harness-lab";\nexport default defineConfig({ grading: { weights: { 1: 24 }, partialCredit: true } });\n`;
const FORGED = '{"score":100,"tests":[]}';

interface Test {
  name: string;
  score: number;
  max_score: number;
  status: string;
  output: string;
  visibility: string;
}
interface Results {
  score: number;
  output: string;
  tests: Test[];
}

/** A fresh /autograder for one submission; returns its root. */
function autograder(submission: string): string {
  const root = join(tempDir("autograder"), "autograder");
  mkdirSync(join(root, "source"), { recursive: true });
  for (const file of ["setup.sh", "run_autograder"]) cpSync(join(EXAMPLE, file), join(root, "source", file));
  writeFileSync(join(labCheckout(ROOT, join(root, "source/lab"), null), "lab.config.ts"), CONFIG);
  mkdirSync(join(root, "submission"));
  writeFileSync(join(root, "submission", one.fileName), submission);
  // Gradescope copies run_autograder next to source/ and runs it from there.
  cpSync(join(root, "source/run_autograder"), join(root, "run_autograder"));
  return root;
}

function runAutograder(root: string): Promise<{ code: number | null; log: string }> {
  return new Promise((done) => {
    const child = spawn(join(root, "run_autograder"), [], {
      cwd: root,
      env: { ...process.env, AUTOGRADER: root, LAB_EXERCISES: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    child.stdout.on("data", (c: Buffer) => (log += c.toString()));
    child.stderr.on("data", (c: Buffer) => (log += c.toString()));
    child.on("close", (code) => done({ code, log }));
  });
}

const SOLUTION = readFileSync(one.solution, "utf8");
const submissions = {
  passing: SOLUTION,
  failing: readFileSync(one.mutants.find((m) => m.bug === "split-results")!.file, "utf8"),
  // The classic attack on an autograder: write a perfect results.json, then let the real one be lost.
  hostile: `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify("__RESULTS__")}, ${JSON.stringify(FORGED)});\n${SOLUTION}`,
};
const runs: Record<string, { root: string; code: number | null; log: string; results: Results; raw: unknown }> = {};

beforeAll(async () => {
  for (const [kind, source] of Object.entries(submissions)) {
    const root = autograder(source);
    writeFileSync(join(root, "submission", one.fileName), source.replace("__RESULTS__", join(root, "results/results.json")));
    const run = await runAutograder(root);
    const raw = existsSync(join(root, "results/results.json")) ? (JSON.parse(readFileSync(join(root, "results/results.json"), "utf8")) as unknown) : null;
    runs[kind] = { root, ...run, raw, results: raw as Results };
  }
}, 600_000);

describe("run_autograder in an /autograder layout", () => {
  test("every run ends 0 and writes a results.json with only Gradescope's documented fields", () => {
    for (const [kind, run] of Object.entries(runs)) {
      expect(run.code, `${kind}: ${run.log}`).toBe(0);
      expect(gradescopeProblems(run.raw), kind).toEqual([]);
    }
  });

  test("a passing submission: every hidden test passed, the weight from the zip's lab.config.ts earned in full", () => {
    const { results } = runs["passing"]!;
    expect(results.score).toBe(24);
    const visible = results.tests.filter((t) => t.visibility === "visible");
    expect(visible).toHaveLength(declaredTests(join(ROOT, "exercises/01-tool-loop/hidden.test.ts")));
    expect(visible.every((t) => t.status === "passed")).toBe(true);
    expect(visible.reduce((sum, t) => sum + t.max_score, 0)).toBeCloseTo(24, 3);
    // The submission is the reference solution: flagged where only the instructor sees it, and the score untouched.
    expect(results.tests.at(-1)).toMatchObject({
      visibility: "hidden",
      score: 0,
      max_score: 0,
      output: "01-tool-loop: the file matches the reference solution.",
    });
  });

  test("a failing submission: partial credit, and the failing test says which bug it points at", () => {
    const { results } = runs["failing"]!;
    const failed = results.tests.filter((t) => t.status === "failed");
    expect(failed.length).toBeGreaterThan(0);
    expect(results.score).toBeCloseTo(24 - failed.reduce((sum, t) => sum + t.max_score, 0), 2);
    const split = failed.find((t) => t.name.includes("(split-results bug)"))!;
    expect(split.output).toContain(`The bug this test catches: ${one.bugs["split-results"]}`);
  });

  test("a hostile submission cannot forge results.json: its write is refused, and it earns nothing", () => {
    const { results, log } = runs["hostile"]!;
    expect(JSON.stringify(results)).not.toBe(FORGED);
    expect(results.score).toBe(0);
    expect(results.tests[0]!.output).toContain("The tests could not run, so this exercise earns no points:");
    expect(results.tests[0]!.output).toContain("grading runs your code without writing files");
    expect(log).not.toContain(FORGED);
  });
});

describe("--format gradescope and grading.weights, refused before anything runs", () => {
  test("a class of more than one learner: exit 2 and one sentence", async () => {
    await expect(gradeHere(classCopy(["ada", "ben"]), { format: "gradescope" })).rejects.toMatchObject({
      message: GRADE_ERRORS.gradescopeOneLearner(2),
      exitCode: 2,
    });
    expect(GRADE_ERRORS.gradescopeOneLearner(2)).toBe(
      "--format gradescope writes the results of one submission, but there are 2 learners here: grade a folder holding one learner's folder (as examples/gradescope/run_autograder does), or choose another format.",
    );
  });

  test("weights for an exercise that does not exist name it and the file", async () => {
    const cwd = tempDir("weights");
    writeFileSync(join(cwd, "lab.config.ts"), "export default { grading: { weights: { 1: 5, 7: 10 } } };\n");
    const file = join(cwd, "lab.config.ts");
    await expect(gradeHere(classCopy(["ada"]), {}, cwd)).rejects.toMatchObject({ message: GRADE_ERRORS.unknownWeights(file, ["7"], [1, 2]), exitCode: 2 });
    expect(GRADE_ERRORS.unknownWeights(file, ["7"], [1, 2])).toBe(
      `${file}: "grading.weights" gives points to exercise 7, which does not exist; the exercises are 1 and 2.`,
    );
  });
});
