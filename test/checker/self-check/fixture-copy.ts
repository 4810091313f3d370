import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadExercises, type Exercise } from "../../../checker/model/exercises.js";
import { tempDir } from "../../support/temp-dir.js";

const FIXTURE = join(import.meta.dirname, "../../fixtures/lab");

export interface FixtureChanges {
  /** Delete the hidden test of this name. */
  withoutTest?: string;
  /** Rename a hidden test: [old name, new name]. */
  renameTest?: [string, string];
  stubSource?: string;
  /** Files to write, by path inside the exercise folder, e.g. "reference/tier3.ts". */
  files?: Record<string, string>;
  /** Replace exercise.json's "tiers". */
  tiers?: number[];
}

/** A private copy of the fixture exercise with the given changes, loaded after them; removed after the test. */
export function fixtureCopy(options: FixtureChanges = {}): Exercise {
  const root = tempDir("self-check");
  cpSync(FIXTURE, root, { recursive: true });
  const dir = join(root, "exercises", "01-adder");
  const hiddenTest = join(dir, "hidden.test.ts");
  if (options.withoutTest) {
    const source = readFileSync(hiddenTest, "utf8");
    const start = source.indexOf(`test(${JSON.stringify(options.withoutTest)}`);
    if (start < 0) throw new Error(`No test named ${options.withoutTest}`);
    const end = source.indexOf("\n});\n", start) + "\n});\n".length;
    writeFileSync(hiddenTest, source.slice(0, start) + source.slice(end));
  }
  if (options.renameTest) {
    const [from, to] = options.renameTest.map((name) => `test(${JSON.stringify(name)}`);
    const source = readFileSync(hiddenTest, "utf8");
    if (!source.includes(from!)) throw new Error(`No test named ${options.renameTest[0]}`);
    writeFileSync(hiddenTest, source.replace(from!, to!));
  }
  if (options.stubSource) writeFileSync(join(dir, "stub.ts"), options.stubSource);
  for (const [path, content] of Object.entries(options.files ?? {})) writeFileSync(join(dir, path), content);
  if (options.tiers) {
    const json = JSON.parse(readFileSync(join(dir, "exercise.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(dir, "exercise.json"), JSON.stringify({ ...json, tiers: options.tiers }));
  }
  return loadExercises(join(root, "exercises"), join(root, "solutions"))[0]!;
}

/** The fixture's own files, to build variants from. */
export const fixtureSource = (path: string) => readFileSync(join(FIXTURE, path), "utf8");
