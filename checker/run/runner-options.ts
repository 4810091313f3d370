/** How a Runner (runner.ts) runs hidden tests: its limits, and its workers' environment and walls. */
export interface RunnerOptions {
  /** Hard wall-clock limit for one run, in seconds. */
  timeoutSeconds?: number;
  /** How many runs may execute at once in `runMany`. */
  maxWorkers?: number;
  /** The whole environment of the worker processes; by default they inherit this process's. */
  env?: Record<string, string>;
  /** Extra Node flags for the worker processes, e.g. a heap limit. */
  execArgv?: string[];
  /** The resident memory one worker process may use, in MB; the outside watcher stops it past that. */
  memoryLimitMb?: number;
  /** Where console output of learner code goes; discarded by default. */
  output?: NodeJS.WritableStream;
  /**
   * The folder `runMany` keeps its private copies of hidden tests in (created if missing,
   * removed on close); by default a new folder in the system's temp folder. A caller that
   * sandboxes the workers needs to know it to let them read it.
   */
  scratchDir?: string;
  /**
   * Let the idle spare worker rehearse a hidden test's path until a run needs it (see
   * warm-up.ts). Worth its CPU only when a person works between runs (the live screen,
   * drills); batches (checks, self-check, grading) leave it off.
   */
  warmSpares?: boolean;
  /**
   * Send transformed code to the workers over IPC instead of through files in vitest's temp
   * folder, so sandboxed workers need read access to nothing but the lab and `scratchDir`.
   */
  codeOverIpc?: boolean;
  /**
   * Record where each test is declared (vitest's includeTaskLocation, on by default). Nothing
   * in a RunResult uses it; a caller running hundreds of files (grading) turns it off to save
   * the stack walk and source-map lookup it costs per test.
   */
  taskLocations?: boolean;
}
