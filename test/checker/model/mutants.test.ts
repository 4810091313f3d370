import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadExercises, surveyExercises } from "../../../checker/model/exercises.js";
import { applyMutantDiff, MUTANT_DIFF_MESSAGES, parseMutantDiff } from "../../../checker/model/mutant-diff.js";
import { MUTANT_MESSAGES, REWRITE_MARK } from "../../../checker/model/mutants.js";
import { labPaths } from "../../../checker/paths.js";
import { tempDir } from "../../support/temp-dir.js";

const FIXTURE = join(import.meta.dirname, "../../fixtures/lab");

/** A private copy of the fixture lab (exercises/01-adder, solutions/01-adder.ts). */
function copy() {
  const root = tempDir("mutants");
  cpSync(FIXTURE, root, { recursive: true });
  const dir = join(root, "exercises/01-adder");
  const solution = join(root, "solutions/01-adder.ts");
  return { root, dir, solution, load: () => loadExercises(join(root, "exercises"), join(root, "solutions"))[0]! };
}

const BASE = ["function add(a, b) {", "  return a + b;", "}", ""].join("\n");
const diff = (body: string[], header = "@@ -1,3 +1,3 @@") =>
  ["Adds one too many.", "--- a/solutions/01-adder.ts", "+++ b/exercises/01-adder/mutants/off-by-one.ts", header, ...body, ""].join("\n");
const OFF_BY_ONE = diff([" function add(a, b) {", "-  return a + b;", "+  return a + b + 1;", " }"], "@@ -1,3 +1,3 @@");
const WHERE = "exercises/01-adder/mutants/off-by-one.diff";

describe("a mutant is a diff: anchored by its own lines, one place or an error that names the line", () => {
  test("a hunk applies where its lines are, whatever its header's line numbers say", () => {
    const parsed = parseMutantDiff(OFF_BY_ONE, WHERE);
    expect(parsed).toMatchObject({ note: "Adds one too many.", base: "solutions/01-adder.ts" });
    expect(applyMutantDiff(`// a line the header does not know about\n${BASE}`, parsed, WHERE)).toBe(
      `// a line the header does not know about\nfunction add(a, b) {\n  return a + b + 1;\n}\n`,
    );
  });

  test("a base that drifted: the diff's first line that is no longer there, by its line in the diff", () => {
    const drifted = BASE.replace("return a + b;", "return b + a;");
    expect(() => applyMutantDiff(drifted, parseMutantDiff(OFF_BY_ONE, WHERE), WHERE)).toThrow(
      `${WHERE}:6: ${MUTANT_DIFF_MESSAGES.missing("solutions/01-adder.ts", "  return a + b;")}`,
    );
    expect(MUTANT_DIFF_MESSAGES.missing("solutions/01-adder.ts", "  return a + b;")).toBe(
      'no longer applies to solutions/01-adder.ts: this line is not there as written after the ones above it: "  return a + b;"',
    );
  });

  test("a hunk that fits two places is refused, with both", () => {
    const twice = diff(["-  return a + b;", "+  return a + b + 1;"], "@@ -2 +2 @@");
    expect(() => applyMutantDiff(`${BASE}${BASE}`, parseMutantDiff(twice, WHERE), WHERE)).toThrow(
      `${WHERE}:4: applies in 2 places in solutions/01-adder.ts (lines 2 and 5): add context lines until it fits one`,
    );
  });

  test.each([
    ["no file names", "Adds one.\n@@ -1 +1 @@\n-a\n+b\n", `${WHERE}:1: ${MUTANT_DIFF_MESSAGES.noHeader}`],
    ["no hunk", diff([]).replace("@@ -1,3 +1,3 @@\n", ""), `${WHERE}:2: ${MUTANT_DIFF_MESSAGES.noHunks}`],
    ["a line that is not a diff line", diff([" function add(a, b) {", "*  return a + b;"]), `${WHERE}:6: ${MUTANT_DIFF_MESSAGES.badLine("*  return a + b;")}`],
    [
      "counts its header contradicts",
      diff([" function add(a, b) {", "-  return a + b;", "+  return a + b + 1;"]),
      `${WHERE}:4: the hunk has 2 old and 2 new lines`,
    ],
    ["a hunk that changes nothing", diff([" function add(a, b) {", "   return a + b;", " }"]), `${WHERE}:4: ${MUTANT_DIFF_MESSAGES.noChange}`],
  ])("%s", (_what, text, message) => {
    expect(() => parseMutantDiff(text, WHERE)).toThrow(message);
  });
});

describe("an exercise's mutants: every file in mutants/ is loaded or refused, and each diff is written out whole", () => {
  test("each diff is written out as a full file under dist/, and loads as a mutant named after its bug", () => {
    const lab = copy();
    const adder = lab.load();
    expect(adder.mutants.map((m) => [m.name, m.bug])).toEqual([
      ["cjs-copy", "cjs-copy"],
      ["no-echo", "no-echo"],
      ["off-by-one", "off-by-one"],
    ]);
    const offByOne = adder.mutants[2]!;
    expect(offByOne.source).toBe(join(lab.dir, "mutants/off-by-one.diff"));
    expect(offByOne.file).toBe(join(lab.root, "dist/exercises/01-adder/mutants/off-by-one.ts"));
    const full = readFileSync(offByOne.file, "utf8");
    expect(full).toContain("  return a + b + 1;\n");
    expect(full.split("\n").length).toBe(readFileSync(lab.solution, "utf8").split("\n").length + 1);
  });

  test("the lab's commands load mutants without writing them: the self-check, which runs them, brings their files up to date", () => {
    const lab = copy();
    // The fixture may hold a build another test's load wrote there: this copy starts with none.
    rmSync(join(lab.root, "dist"), { recursive: true, force: true });
    const { exercises, problems } = surveyExercises(join(lab.root, "exercises"), join(lab.root, "solutions"), "leave");
    expect(problems).toEqual([]);
    const offByOne = exercises[0]!.mutants[2]!;
    expect(offByOne.bug).toBe("off-by-one");
    expect(existsSync(offByOne.file)).toBe(false);
    lab.load();
    expect(readFileSync(offByOne.file, "utf8")).toContain("  return a + b + 1;\n");
  });

  test("a solution changed under a diff fails the load with the mutant's file and line, and so does the build", () => {
    const lab = copy();
    const line = "    return err instanceof Anthropic.RateLimitError;";
    writeFileSync(lab.solution, readFileSync(lab.solution, "utf8").replace(line, line.replace(";", " || false;")));
    const message = `exercises/01-adder/mutants/cjs-copy.diff:14: ${MUTANT_DIFF_MESSAGES.missing("solutions/01-adder.ts", line)}`;
    expect(lab.load).toThrow(message);
    const build = spawnSync(process.execPath, [join(labPaths().root, "scripts/build-exercises.mjs"), lab.root], { encoding: "utf8" });
    expect(build.stderr).toBe(`${message}\nThe build stops: an exercise does not load.\n`);
    expect(build.status).toBe(1);
  });

  test("a subfolder is a group: its mutants load after the others, named with the folder", () => {
    const lab = copy();
    mkdirSync(join(lab.dir, "mutants/blind"));
    cpSync(join(lab.dir, "mutants/off-by-one.diff"), join(lab.dir, "mutants/blind/off-by-one.diff"));
    const adder = lab.load();
    expect(adder.mutants.map((m) => m.name)).toEqual(["cjs-copy", "no-echo", "off-by-one", "blind/off-by-one"]);
    expect(adder.mutants[3]).toMatchObject({ bug: "off-by-one", file: join(lab.root, "dist/exercises/01-adder/mutants/blind/off-by-one.ts") });
    expect(existsSync(adder.mutants[3]!.file)).toBe(true);
  });

  test("a full file stays only as a rewrite that says why", () => {
    const lab = copy();
    const rewrite = join(lab.dir, "mutants/no-echo.ts");
    renameSync(join(lab.dir, "mutants/no-echo.diff"), join(lab.root, "no-echo.diff"));
    writeFileSync(rewrite, "export const add = (a: number) => a;\n");
    expect(lab.load).toThrow(MUTANT_MESSAGES.noReason("01-adder/mutants/no-echo.ts"));
    writeFileSync(rewrite, `${REWRITE_MARK} nothing of the solution is left.\nexport const add = (a: number) => a;\n`);
    expect(lab.load().mutants[1]).toMatchObject({ name: "no-echo", source: rewrite, file: rewrite });
    cpSync(join(lab.root, "no-echo.diff"), join(lab.dir, "mutants/no-echo.diff"));
    expect(lab.load).toThrow(MUTANT_MESSAGES.both("01-adder/mutants/no-echo.ts"));
  });

  test.each([
    ["a file that is no mutant", "mutants/notes.md", MUTANT_MESSAGES.notMutant("01-adder/mutants/notes.md")],
    ["a folder two deep", "mutants/blind/older/off-by-one.diff", MUTANT_MESSAGES.tooDeep("01-adder/mutants/blind/older")],
  ])("%s is refused, never skipped", (_what, path, message) => {
    const lab = copy();
    mkdirSync(join(lab.dir, path, ".."), { recursive: true });
    cpSync(join(lab.dir, "mutants/off-by-one.diff"), join(lab.dir, path));
    expect(lab.load).toThrow(message);
  });

  test("a base outside the exercise is refused", () => {
    const lab = copy();
    const file = join(lab.dir, "mutants/off-by-one.diff");
    writeFileSync(file, readFileSync(file, "utf8").replace("--- a/solutions/01-adder.ts", "--- a/solutions/02-other.ts"));
    expect(lab.load).toThrow(`exercises/01-adder/mutants/off-by-one.diff:2: ${MUTANT_MESSAGES.badBase("solutions/02-other.ts")}`);
  });
});
