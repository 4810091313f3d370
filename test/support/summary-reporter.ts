import type { Reporter, TestModule } from "vitest/node";

/** Prints the one closing line CI reads: "N passed, M failed". */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
      }
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) failed++;
    }
    failed += errors.length;
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
