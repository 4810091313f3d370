import { writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints the one closing line CI reads: "N passed, M failed". Under `npm test`, which prints the
 * checks it ran beside the suite after it, the counts go to LAB_SUMMARY_FILE and scripts/test.mjs
 * prints the line last.
 */
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
    const file = process.env["LAB_SUMMARY_FILE"];
    if (file) writeFileSync(file, JSON.stringify({ passed, failed }));
    else process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
