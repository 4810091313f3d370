// The cold baseline the benches compare lab against: one plain vitest process per hidden test,
// with "lab:impl" bound to LAB_IMPL. Learners use `lab check --file` instead.
//   LAB_IMPL=solutions/01-tool-loop.ts npx vitest run --config bench/cold-vitest.config.ts exercises/01-tool-loop/hidden.test.ts
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

const root = resolve(import.meta.dirname, "..");
const impl = process.env["LAB_IMPL"];
if (!impl) throw new Error("Set LAB_IMPL to the implementation file to test.");

export default defineConfig({
  root,
  resolve: {
    alias: {
      "lab:impl": resolve(process.cwd(), impl),
      "lab:test": resolve(root, "checker/testing/index.ts"),
    },
  },
  test: { include: ["exercises/*/hidden.test.ts"], testTimeout: 10_000 },
});
