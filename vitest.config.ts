import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import SlowestFirst from "./test/support/slowest-first.js";

/**
 * Test files that leave nothing behind in the process that ran them (no environment variable,
 * process listener, fake timer, spy or module mock, no Ink loaded under a chosen environment,
 * nor any in the helpers they import): they share worker processes and the modules loaded there
 * instead of each paying for a fresh process (the provider's 33 files: 21 s isolated, 8 s
 * shared). Anything not clearly so stays isolated, and a new file is isolated until listed here.
 */
const SHARED = [
  "test/checker/provider/**/*.test.ts",
  "test/checker/model/**/*.test.ts",
  "test/src/config/**/*.test.ts",
  "test/src/progress/**/*.test.ts",
  "test/src/trace/**/*.test.ts",
  "test/src/report/*-words.test.ts",
  "test/src/drill/{big-clock,code-lines,compare,drill-keys,drill-source,drill-state,history-view,history,line-targets,targets}.test.ts",
  "test/src/grade/{class-dir,exercism,fingerprint,formats,learner-units,options,report,store,summary,workflows-lint}.test.ts",
];

// Fixture exercises' hidden tests import "lab:impl": only the checker's runner can bind that.
const exclude = ["test/fixtures/**", "**/node_modules/**"];

// The project's own tests. Hidden exercise tests are run by the checker, never from here.
export default defineConfig({
  // The screens' Ink is a bundle (src/screen/ink-bundle.ts); tests render with ink-testing-library, which needs the package itself.
  resolve: { alias: { "#ink": "ink" } },
  test: {
    testTimeout: 20_000,
    // Workers, lab:test and the CLI's processes run dist/: a build older than its sources is refused.
    globalSetup: ["./test/support/fresh-build.ts"],
    setupFiles: ["./test/support/file-hooks.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // A file per core, not vitest's default of one fewer: many files spend much of their time
    // waiting on processes, terminals and limits, and on 2 cores one file at a time left a core idle
    // (27 of the slower files: 251 s one at a time, 167 s two at a time, 164 s three at a time).
    maxWorkers: availableParallelism(),
    sequence: { sequencer: SlowestFirst },
    projects: [
      { extends: true, test: { name: "isolated", include: ["test/**/*.test.ts", "test/**/*.test.tsx"], exclude: [...exclude, ...SHARED] } },
      { extends: true, test: { name: "shared", include: SHARED, exclude, isolate: false } },
    ],
  },
});
