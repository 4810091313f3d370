// Stryker's own vitest config: one exercise's hidden test, with "lab:impl" bound straight to the
// (mutated) solution, "lab:test" to the compiled test helpers and "lab:support" to the exercise's
// own compiled support/. Stryker cannot go through the lab's runner (its walls and worker pool),
// so this does by hand what the runner's binding-plugin does.
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

const root = resolve(import.meta.dirname, "..");
const exercise = process.env["LAB_MUTATION_EXERCISE"];
if (!exercise) throw new Error("LAB_MUTATION_EXERCISE must name the exercise folder, e.g. 01-tool-loop.");

export default defineConfig({
  plugins: [
    {
      name: "lab-mutation-binding",
      enforce: "pre",
      resolveId(id) {
        if (id === "lab:impl") return resolve(root, "solutions", `${exercise}.ts`);
        if (id === "lab:test") return resolve(root, "dist/checker/testing/index.js");
        if (id === "lab:support") return resolve(root, "dist/exercises", exercise, "support/index.js");
        return null;
      },
    },
  ],
  test: {
    root,
    include: [`exercises/${exercise}/hidden.test.ts`],
    setupFiles: [resolve(import.meta.dirname, "lay-fixtures.mjs")],
    testTimeout: 20_000,
    // Stryker reads the results itself; a reporter would print every killed mutant's failures.
    reporters: [{}],
  },
});
