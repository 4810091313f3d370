/**
 * The scenarios exercises bring in their own folders: `exercises/NN-slug/scenarios.ts`, whose
 * `scenarios` export lists them. They are found by listing the folders, so the engine names no
 * exercise and a new one registers its scenarios by having the file. Run from the sources, the
 * folder is the repository's exercises/; run from the build, dist/exercises/ (compiled there).
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Scenario } from "./types.js";

const here = fileURLToPath(import.meta.url);
/** exercises/ beside the checker/ this file is in: the repository's, or the build's in dist/. */
const EXERCISES = join(here, "../../../../exercises");
const FILE = here.endsWith(".ts") ? "scenarios.ts" : "scenarios.js";
const FOLDER = /^\d{2}-[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const DISCOVERY_MESSAGES = {
  notAList: (file: string) => `${file}: export "scenarios" must be a list of scenarios (defineScenario from the scenario helpers)`,
  twice: (name: string, first: string, second: string) => `scenario "${name}" is defined twice: in ${first} and in ${second}`,
} as const;

/** Each exercise's scenarios, in folder order; a name defined twice is an error naming both files. */
export async function discoverScenarios(exercisesDir: string, file: string, builtIn: readonly Scenario[]): Promise<Scenario[]> {
  const folders = existsSync(exercisesDir)
    ? readdirSync(exercisesDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && FOLDER.test(entry.name))
        .map((entry) => entry.name)
        .sort()
    : [];
  const owner = new Map(builtIn.map((s) => [s.name, "the engine's own scenarios"]));
  const found: Scenario[] = [];
  for (const folder of folders) {
    const path = join(exercisesDir, folder, file);
    if (!existsSync(path)) continue;
    const label = `exercises/${folder}/${file}`;
    const { scenarios } = (await import(pathToFileURL(path).href)) as { scenarios?: unknown };
    if (!Array.isArray(scenarios) || scenarios.some((s) => typeof (s as Scenario)?.reply !== "function")) throw new Error(DISCOVERY_MESSAGES.notAList(label));
    for (const scenario of scenarios as Scenario[]) {
      const first = owner.get(scenario.name);
      if (first) throw new Error(DISCOVERY_MESSAGES.twice(scenario.name, first, label));
      owner.set(scenario.name, label);
      found.push(scenario);
    }
  }
  return found;
}

let discovered: Promise<Scenario[]> | null = null;

/** The scenarios of every exercise of this lab, found once per process. */
export function exerciseScenarios(builtIn: readonly Scenario[]): Promise<Scenario[]> {
  discovered ??= discoverScenarios(EXERCISES, FILE, builtIn);
  return discovered;
}
