/**
 * Grading an exercise whose tests need real symlinks (8): the walled workers may not make
 * them, so the lab lays the exercise's fixtures in each pair's fresh temp folder.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import { labPaths } from "../../../checker/paths.js";
import { gradeCommand } from "../../../src/commands/grade.js";
import { GRADE_NOTES } from "../../../src/grade/messages.js";
import { captureIo } from "../../support/io.js";
import { noSignals, tempDir } from "./support.js";

const lab = labPaths();
const PATHS = { root: lab.root, exercises: lab.exercises, solutions: lab.solutions };
const SOLUTION = readFileSync(join(lab.solutions, "08-offloading.ts"), "utf8");
const eight = loadExercises(lab.exercises, lab.solutions).find((e) => e.number === 8)!;
const mutant = (bug: string) => readFileSync(eight.mutants.find((m) => m.name === bug)!.file, "utf8");
const PLANTED = "a symlink planted inside the root that points outside is refused (no-realpath bug)";
const LINKED_ROOT = "an Offloader whose root is reached through a symlink still reads its own artifacts (realpath-one-side bug)";

interface Row {
  learner: string;
  state: string;
  passed: number;
  total: number;
  detail: string | null;
}

test("exercise 8 graded walled: the solution passes 11/11, each symlink bug fails its own test, and fixtures never carry over", async () => {
  const dir = tempDir("class-08");
  const learners: Record<string, string> = {
    ada: SOLUTION,
    // Graded first on the same worker slot as ada: it deletes its fixtures, and ada's must be whole again.
    aaa: `import { rmSync } from "node:fs";\nrmSync(process.env["LAB_FIXTURES"] ?? "/nonexistent", { recursive: true, force: true });\n${SOLUTION}`,
    bob: mutant("no-realpath"),
    cy: mutant("realpath-one-side"),
  };
  for (const [learner, source] of Object.entries(learners)) {
    mkdirSync(join(dir, learner));
    writeFileSync(join(dir, learner, "08-offloading.ts"), source);
  }
  const io = captureIo(dir);
  const code = await gradeCommand(dir, { exercises: "8", jobs: "1", timeout: "20", format: "json" }, io, PATHS, noSignals);
  expect(code).toBe(0);

  const results = Object.fromEntries(
    Object.keys(learners).map((learner) => {
      const json = JSON.parse(readFileSync(join(dir, ".lab-grade/learners", learner, "results.json"), "utf8")) as { tests: { name: string; status: string }[] };
      return [learner, json.tests.filter((t) => t.status !== "pass").map((t) => t.name.replace(/^08-offloading: /, ""))];
    }),
  );
  const rows = (JSON.parse(io.out()) as { rows: Row[] }).rows.map((r) => [
    r.learner,
    r.state,
    `${r.passed}/${r.total}`,
    ...(r.state === "error" ? [r.detail] : []),
  ]);
  expect(rows).toEqual([
    ["aaa", "fail", "9/11"],
    ["ada", "pass", "11/11"],
    ["bob", "fail", "10/11"],
    ["cy", "fail", "10/11"],
  ]);
  expect(results).toEqual({ aaa: [PLANTED, LINKED_ROOT], ada: [], bob: [PLANTED], cy: [LINKED_ROOT] });
}, 180_000);

test("a changed fixture is a changed test: the exercise is graded again", async () => {
  const copy = tempDir("lab-08");
  cpSync(join(lab.exercises, "08-offloading"), join(copy, "exercises/08-offloading"), { recursive: true, verbatimSymlinks: true });
  mkdirSync(join(copy, "solutions"));
  // An exercise is its folder, its solution (its mutants are diffs against it) and what the build made of its support.
  cpSync(join(lab.solutions, "08-offloading.ts"), join(copy, "solutions/08-offloading.ts"));
  cpSync(join(lab.root, "dist/exercises/08-offloading"), join(copy, "dist/exercises/08-offloading"), { recursive: true });
  const paths = { root: lab.root, exercises: join(copy, "exercises"), solutions: join(copy, "solutions") };
  const dir = tempDir("class-08-fixture");
  mkdirSync(join(dir, "ada"));
  writeFileSync(join(dir, "ada/08-offloading.ts"), SOLUTION);
  const grade = async () => {
    const io = captureIo(dir);
    expect(await gradeCommand(dir, { timeout: "20" }, io, paths, noSignals)).toBe(0);
    return io.err().split("\n")[0];
  };

  expect(await grade()).toBe(GRADE_NOTES.planned(1, 0, 0));
  expect(await grade()).toBe(GRADE_NOTES.planned(0, 1, 0));
  writeFileSync(join(copy, "exercises/08-offloading/fixtures/planted-link/outside/secret.txt"), "tenant-c api key: sk-live-2222\n");
  expect(await grade()).toBe(GRADE_NOTES.planned(1, 0, 0));
}, 180_000);
