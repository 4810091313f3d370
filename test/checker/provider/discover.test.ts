/** An exercise's scenarios are found in its folder, by listing the folders: the engine names none. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DISCOVERY_MESSAGES, discoverScenarios } from "../../../checker/provider/scenarios/discover.js";
import { allScenarios, BUILT_IN_SCENARIOS } from "../../../checker/provider/scenarios/index.js";
import { tempDir } from "../../support/temp-dir.js";

/** A folder of exercises, each given its scenarios.mjs text. */
function exercises(files: Record<string, string>): string {
  const dir = tempDir("discover");
  for (const [folder, text] of Object.entries(files)) {
    mkdirSync(join(dir, folder));
    writeFileSync(join(dir, folder, "scenarios.mjs"), text);
  }
  return dir;
}

const scenario = (name: string) => `{ name: ${JSON.stringify(name)}, description: "d", reply: () => ({ kind: "message", content: [] }) }`;
const listing = (...names: string[]) => `export const scenarios = [${names.map(scenario).join(", ")}];\n`;

describe("discovering exercises' scenarios", () => {
  it("finds each exercise folder's scenarios, in folder order, and skips folders that are not exercises or have none", async () => {
    const dir = exercises({ "02-later": listing("later"), "01-first": listing("first-a", "first-b"), notes: listing("ignored") });
    mkdirSync(join(dir, "03-without"));
    const found = await discoverScenarios(dir, "scenarios.mjs", BUILT_IN_SCENARIOS);
    expect(found.map((s) => s.name)).toEqual(["first-a", "first-b", "later"]);
  });

  it("refuses a name defined twice, naming both places", async () => {
    const dir = exercises({ "01-first": listing("twin"), "02-second": listing("twin") });
    await expect(discoverScenarios(dir, "scenarios.mjs", [])).rejects.toThrow(
      DISCOVERY_MESSAGES.twice("twin", "exercises/01-first/scenarios.mjs", "exercises/02-second/scenarios.mjs"),
    );
    const clash = exercises({ "01-first": listing("echo") });
    await expect(discoverScenarios(clash, "scenarios.mjs", BUILT_IN_SCENARIOS)).rejects.toThrow(
      'scenario "echo" is defined twice: in the engine\'s own scenarios and in exercises/01-first/scenarios.mjs',
    );
  });

  it("refuses a scenarios export that is not a list of scenarios", async () => {
    const dir = exercises({ "01-first": "export const scenarios = { name: 'x' };\n" });
    await expect(discoverScenarios(dir, "scenarios.mjs", [])).rejects.toThrow(DISCOVERY_MESSAGES.notAList("exercises/01-first/scenarios.mjs"));
  });

  it("the lab's own: the engine's scenarios, then those the exercises bring, each name once", async () => {
    const names = (await allScenarios()).map((s) => s.name);
    expect(names.slice(0, BUILT_IN_SCENARIOS.length)).toEqual(BUILT_IN_SCENARIOS.map((s) => s.name));
    expect(names).toEqual(expect.arrayContaining(["walkthrough", "support-desk", "acme-triage", "plan", "injection", "exact-reply"]));
    expect(new Set(names).size).toBe(names.length);
  });
});
