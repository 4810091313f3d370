/**
 * The order test files start in. With a file per core, the suite ends when its longest file does,
 * so the longest start first. Vitest's own order puts files it has timed before longest first, but
 * a fresh clone has no timings, and then it goes by file size: the self-check, a 50-line file that
 * runs every exercise's files, would start last and run alone at the end.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The files that take longest (vitest's per-file durations on 2 cores), the longest first. */
export const SLOWEST = [
  "test/self-check.test.ts",
  "test/src/grade/class-report.test.ts",
  "test/src/grade/resume.test.ts",
  "test/src/commands/check.test.ts",
  "test/checker/run/runner.test.ts",
  "test/e2e/start-every-exercise-in-tmux.test.ts",
  "test/src/commands/run.test.ts",
  "test/src/grade/hostile.test.ts",
  "test/src/grade/hostile-realm.test.ts",
  "test/src/typecheck/type-checker.test.ts",
  "test/e2e/start-in-tmux.test.ts",
  "test/e2e/drill-in-tmux.test.ts",
];

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = SLOWEST.indexOf(relative(this.ctx.config.root, spec.moduleId));
      return at === -1 ? SLOWEST.length : at;
    };
    // A stable sort: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
