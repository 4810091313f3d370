import { cpSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { bugOfTest, findExercise, loadExercises, surveyExercises } from "../../../checker/model/exercises.js";
import { tempDir } from "../../support/temp-dir.js";

const FIXTURE = join(import.meta.dirname, "../../fixtures/lab");

/** A copy of the fixture exercise, with exercise.json changed by `edit`. */
function copy(edit: (json: Record<string, unknown>) => void = () => {}) {
  const root = tempDir("exercises");
  cpSync(FIXTURE, root, { recursive: true });
  const file = join(root, "exercises/01-adder/exercise.json");
  const json = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  edit(json);
  writeFileSync(file, JSON.stringify(json));
  return { exercises: join(root, "exercises"), solutions: join(root, "solutions"), dir: join(root, "exercises/01-adder") };
}

const load = (c: ReturnType<typeof copy>) => () => loadExercises(c.exercises, c.solutions);

describe("exercise.json is validated, and a bad one names the folder and the field", () => {
  test("a valid folder loads with its files, tiers and mutants", () => {
    const c = copy();
    const [adder] = load(c)();
    expect(adder).toMatchObject({ id: "01-adder", number: 1, slug: "adder", fileName: "01-adder.ts", tiers: [1] });
    expect(adder!.references).toEqual({ 1: join(c.dir, "reference/tier1.md") });
    expect(adder!.mutants.map((m) => m.bug)).toEqual(["cjs-copy", "no-echo", "off-by-one"]);
    expect(adder!.solution).toBe(join(c.solutions, "01-adder.ts"));
  });

  test("correct solutions written another way are listed from alternatives/, and a folder without one has none", () => {
    const c = copy();
    writeFileSync(join(c.dir, "alternatives/notes.md"), "not a solution\n");
    expect(load(c)()[0]!.alternatives).toEqual([join(c.dir, "alternatives/sum-by-reduce.ts")]);
    rmSync(join(c.dir, "alternatives"), { recursive: true });
    expect(load(c)()[0]!.alternatives).toEqual([]);
  });

  test.each([
    ["number", 2, 'exercises/01-adder/exercise.json: "number" must be 1, the folder\'s number.'],
    ["slug", "adding", 'exercises/01-adder/exercise.json: "slug" must be "adder", the folder\'s slug.'],
    ["title", "", 'exercises/01-adder/exercise.json: "title" must be a non-empty string.'],
    ["targetLines", 0, 'exercises/01-adder/exercise.json: "targetLines" must be a positive whole number.'],
    ["tiers", [4], 'exercises/01-adder/exercise.json: "tiers" must list the tiers present, from 1, 2 and 3.'],
    ["hints", [], 'exercises/01-adder/exercise.json: "hints" must be a non-empty list of strings.'],
    ["bugs", ["a"], 'exercises/01-adder/exercise.json: "bugs" must map bug ids to one-line descriptions.'],
    ["questions", [{ q: "why" }], 'exercises/01-adder/exercise.json: "questions" must be a list of { "q": …, "a": … }.'],
  ])("a bad %s", (field, value, message) => {
    expect(load(copy((json) => (json[field] = value)))).toThrow(message);
  });

  test("a tier listed without its reference file", () => {
    expect(load(copy((json) => (json["tiers"] = [1, 3])))).toThrow('exercises/01-adder/exercise.json: "tiers" lists 3 but reference/tier3.ts is missing.');
  });

  test("a mutant whose bug is not in bugs", () => {
    const c = copy();
    renameSync(join(c.dir, "mutants/no-echo.diff"), join(c.dir, "mutants/no-reply.diff"));
    expect(load(c)).toThrow('exercises/01-adder/mutants/no-reply.diff: "no-reply" is not a key of "bugs" in exercise.json.');
  });

  test("not JSON, and missing files", () => {
    const c = copy();
    writeFileSync(join(c.dir, "exercise.json"), "{");
    expect(load(c)).toThrow(/^exercises\/01-adder\/exercise\.json: is not valid JSON \(/);
    const d = copy();
    rmSync(join(d.dir, "stub.ts"));
    expect(load(d)).toThrow("exercises/01-adder: stub.ts is missing (the stub).");
  });

  test("surveyExercises keeps the ones that load and lists the problems of the rest", () => {
    const c = copy((json) => (json["title"] = ""));
    const { exercises, problems } = surveyExercises(c.exercises, c.solutions);
    expect(exercises).toEqual([]);
    expect(problems.map((p) => p.message)).toEqual(['exercises/01-adder/exercise.json: "title" must be a non-empty string.']);
  });
});

describe("finding exercises and bugs", () => {
  test("by number, padded number, folder or slug", () => {
    const exercises = load(copy())();
    for (const key of ["1", "01", "01-adder", "adder"]) expect(findExercise(exercises, key)?.id).toBe("01-adder");
    expect(findExercise(exercises, "2")).toBeUndefined();
  });

  test("a test name's bug is its trailing (id bug)", () => {
    expect(bugOfTest("adds two numbers (off-by-one bug)")).toBe("off-by-one");
    expect(bugOfTest("adds (off-by-one bug) two numbers")).toBeNull();
    expect(bugOfTest("adds two numbers")).toBeNull();
  });
});
