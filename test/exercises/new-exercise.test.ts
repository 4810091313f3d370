/**
 * Adding an exercise touches only its own folder. A throwaway exercise 99, with a scenario and
 * support of its own, is written into a temporary copy of the built lab (package.json and
 * dist/, nothing of any other exercise), built there with the lab's own build step for exercise
 * folders, discovered, and self-checked by that copy's own engine; the copy goes with the test.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { labPaths } from "../../checker/paths.js";
import { tempDir } from "../support/temp-dir.js";

const run = promisify(execFile);
const lab = labPaths();

const SOLUTION = `import Anthropic from "@anthropic-ai/sdk";

export async function shout(client: Anthropic): Promise<string> {
  const reply = await client.messages.create({ model: "claude-haiku-4-5", max_tokens: 64, messages: [{ role: "user", content: "Greet me." }] });
  const block = reply.content[0];
  return block?.type === "text" ? block.text.toUpperCase() : "";
}
`;

/** Exercise 99's folder, path by path; the solution is solutions/99-throwaway.ts. */
const FOLDER: Record<string, string> = {
  "exercise.json": JSON.stringify({
    number: 99,
    slug: "throwaway",
    title: "A throwaway exercise",
    targetLines: 3,
    tiers: [1],
    hints: ["Upper-case what the model says."],
    bugs: { quiet: "The greeting comes back as the model wrote it, not shouted." },
    questions: [],
  }),
  "lesson.md": "# A throwaway exercise\n\nShout what the model says.\n",
  "reference/tier1.md": "reply = ask the model; return its text in upper case\n",
  "stub.ts": `import Anthropic from "@anthropic-ai/sdk";\n\nexport async function shout(client: Anthropic): Promise<string> {\n  throw new Error("not started yet");\n}\n`,
  "scenarios.ts": `import { defineScenario, text, type Scenario } from "../../checker/provider/scenarios/helpers.js";

export const GREETING = "Hello from exercise 99";

export const scenarios: Scenario[] = [defineScenario({ name: "throwaway-greeting", description: "says hello", reply: () => text(GREETING) })];
`,
  "support/index.ts": `import { useScenario } from "../../../checker/testing/index.js";

export { GREETING } from "../scenarios.js";

/** A session on the exercise's own scenario, opened through the shared kit. */
export const greeted = () => useScenario("throwaway-greeting");
`,
  "hidden.test.ts": `import { expect, test } from "vitest";
import { shout } from "lab:impl";
import { GREETING, greeted } from "lab:support";

test("the model's greeting comes back shouted (quiet bug)", async () => {
  const session = await greeted();
  expect(await shout(session.client)).toBe(GREETING.toUpperCase());
  expect(session.calls()).toHaveLength(1);
});
`,
  "mutants/quiet.diff": `The text goes back as the model wrote it.
--- a/solutions/99-throwaway.ts
+++ b/exercises/99-throwaway/mutants/quiet.ts
@@ -4,4 +4,4 @@
   const reply = await client.messages.create({ model: "claude-haiku-4-5", max_tokens: 64, messages: [{ role: "user", content: "Greet me." }] });
   const block = reply.content[0];
-  return block?.type === "text" ? block.text.toUpperCase() : "";
+  return block?.type === "text" ? block.text : "";
 }
`,
};

/** What the copy's own engine reports: the exercises it found and the self-check's verdict on each. */
const SELF_CHECK = `import { loadExercises } from "./dist/checker/model/exercises.js";
import { Runner } from "./dist/checker/run/runner.js";
import { selfCheck } from "./dist/checker/self-check/self-check.js";

const exercises = loadExercises("exercises", "solutions");
const runner = await Runner.create({ timeoutSeconds: 60, maxWorkers: 1 });
const verdicts = await selfCheck(runner, exercises);
await runner.close();
console.log(JSON.stringify({ found: exercises.map((e) => e.id), verdicts }));
`;

test("a new exercise is one folder: exercise 99, with its own scenario and support, is built, discovered and self-checked in a copy of the lab", async () => {
  const root = tempDir("exercise-99");
  cpSync(join(lab.root, "package.json"), join(root, "package.json"));
  cpSync(lab.dist, join(root, "dist"), { recursive: true, filter: (from) => !from.startsWith(join(lab.dist, "exercises")) });
  symlinkSync(join(lab.root, "node_modules"), join(root, "node_modules"));
  const dir = join(root, "exercises", "99-throwaway");
  for (const [path, text] of Object.entries(FOLDER)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  mkdirSync(join(root, "solutions"));
  writeFileSync(join(root, "solutions", "99-throwaway.ts"), SOLUTION);

  const built = await run(process.execPath, [join(lab.root, "scripts/build-exercises.mjs"), root]);
  expect(built.stdout).toContain("exercises: 2 support and scenario files compiled, 1 mutants written as full files");
  for (const file of ["support/index.js", "scenarios.js", "mutants/quiet.ts"])
    expect(existsSync(join(root, "dist/exercises/99-throwaway", file)), file).toBe(true);

  writeFileSync(join(root, "self-check.mjs"), SELF_CHECK);
  const checked = await run(process.execPath, ["self-check.mjs"], { cwd: root });
  const { found, verdicts } = JSON.parse(checked.stdout) as { found: string[]; verdicts: { problems: string[]; solution: object; mutants: object[] }[] };
  expect(found).toEqual(["99-throwaway"]);
  expect(verdicts[0]).toMatchObject({
    problems: [],
    solution: { passed: 1, total: 1 },
    mutants: [{ name: "quiet", killedBy: ["the model's greeting comes back shouted (quiet bug)"], loadError: null }],
  });
}, 120_000);
