import type { Exercise } from "../model/exercises.js";
import type { LearnerBundle } from "../realm/bundle.js";
import type { RunListener, TestOutcome } from "../model/result.js";

/** What the runner knows about one test file while it runs. */
export interface Binding {
  exercise: Exercise;
  implFile: string;
  testFile: string;
  listener: RunListener | undefined;
  tests: Map<string, TestOutcome>;
  timedOut: boolean;
  timer: NodeJS.Timeout | null;
  /** How the worker running this file died, if it did before reporting the file finished. */
  died: { code: number | null; signal: NodeJS.Signals | null } | null;
  /** Why the worker running this file was stopped for writing what the tests never sent (see workers/channel.ts). */
  forged: string | null;
  /** Stops the worker running this file, once one has it. */
  kill: (() => void) | null;
  /** The caller stopped this run (stopRun): its worker is killed as soon as it has one. */
  stopped: boolean;
  /** It ran on a process that had run an earlier file of the same owner. */
  reused: boolean;
  /** The learner's file bundled for this run, started before the worker asks for it (see binding-plugin.ts). */
  bundle?: Promise<LearnerBundle>;
}
