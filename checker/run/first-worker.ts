/**
 * A runner's worker processes, and its first worker started before vitest is loaded. Nothing
 * here loads vitest: a command forks its first worker (~300 ms to start, mostly module loading)
 * and only then imports the runner (~200 ms, vitest), so the two overlap on two cores.
 */
import { labPaths } from "../paths.js";
import type { RunnerOptions } from "./runner-options.js";
import { guessedWorkerOptions } from "./vitest-internals.js";
import { SpareProcesses } from "./workers/spare-processes.js";

/** The worker processes of a runner made with `options`. */
export function sparesFor(options: RunnerOptions): SpareProcesses {
  return new SpareProcesses(labPaths().preload, options.env, options.warmSpares ?? false, options.memoryLimitMb ?? null);
}

/** The worker processes of a runner made with `options` (hand them to Runner.create), the first one already starting. */
export function forkFirstWorker(options: RunnerOptions): SpareProcesses {
  const spares = sparesFor(options);
  spares.forkAhead(guessedWorkerOptions(options.execArgv ?? []));
  return spares;
}
