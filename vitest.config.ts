import { defineConfig } from "vitest/config";

// The project's own tests. Hidden exercise tests are run by the checker, never from here.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    // Fixture exercises' hidden tests import "lab:impl": only the checker's runner can bind that.
    exclude: ["test/fixtures/**", "**/node_modules/**"],
    testTimeout: 20_000,
    // Workers, lab:test and the CLI's processes run dist/: a build older than its sources is refused.
    globalSetup: ["./test/support/fresh-build.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
