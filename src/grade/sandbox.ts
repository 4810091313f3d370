/**
 * How grading walls off learner code: the Node flags and the whole environment of every
 * worker process. Under Node's permission model a worker may read only the folders it is
 * given (the lab's node_modules and dist, the runners' copies of the hidden tests): not the
 * class folder, not other learners' copies, not the grader's home or working folder. It may
 * write only in its own temp folder (TMPDIR, emptied between pairs), start no process and
 * signal no process but its own. The worker may start threads: the learner's realm is one
 * (checker/realm/), bound by the same walls but for that right (realmFlags in host.ts), so
 * learner code itself can start none. Its memory is watched from outside,
 * by the runner's outside watcher (checker/run/stopping/outside-watcher.ts).
 */
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { Exercise } from "../../checker/model/exercises.js";
import type { RunnerOptions } from "../../checker/run/runner.js";
import { realOrSame } from "../../checker/run/walls/import-wall.js";
import { ownedTempDir } from "../../checker/run/walls/owned-temp.js";
import { SIGNALS_ENV } from "../../checker/run/walls/signal-wall.js";
import { FIXTURES_ENV, fixturesIn, layFixtures } from "../../checker/testing/fixtures.js";

export interface Sandbox {
  execArgv: string[];
  env: Record<string, string>;
}

/** `--permission` where Node has it (22.13+), else the experimental flag of Node 20. */
export function permissionFlag(flags: ReadonlySet<string> = process.allowedNodeEnvironmentFlags): string {
  return flags.has("--permission") ? "--permission" : "--experimental-permission";
}

/** Each folder as given and as its real path, since the permission model compares paths as strings. */
function bothSpellings(dirs: string[]): string[] {
  const all = new Set<string>();
  for (const dir of dirs) {
    all.add(dir);
    try {
      all.add(realpathSync(dir));
    } catch {
      // A folder that does not exist yet is granted as spelled.
    }
  }
  return [...all];
}

/**
 * A folder and everything in it, as Node's wildcard: granted as a bare path, a folder's
 * contents are granted only if it exists as the worker starts (Node stats it once), so a
 * worker forked while its temp folder is being emptied would be refused everything in it.
 * The wildcard covers the folder itself, never a sibling that shares its prefix. (Node 20
 * aborts on a folder granted both ways.)
 */
function within(dir: string): string {
  return join(dir, "*");
}

/**
 * `readable`: the folders workers may read; `memoryMb`: the heap limit (the guard's is given to
 * the runner); `tmp`: the one folder they may also write, as their TMPDIR, since exercises that
 * work on real files (offloading, a run saved to disk) need somewhere to put them. The
 * exercise's fixtures, which the workers may not make (symlinks), are laid in it by the lab
 * before each run (checker/testing/fixtures.ts); LAB_FIXTURES says where.
 */
export function workerSandbox(readable: string[], memoryMb: number, tmp?: string): Sandbox {
  const writable = tmp ? bothSpellings([tmp]) : [];
  return {
    execArgv: [
      permissionFlag(),
      ...bothSpellings(readable).map((dir) => `--allow-fs-read=${within(dir)}`),
      ...writable.flatMap((dir) => [`--allow-fs-read=${within(dir)}`, `--allow-fs-write=${within(dir)}`]),
      "--allow-worker",
      "--disable-warning=ExperimentalWarning",
      "--disable-warning=SecurityWarning",
      `--max-old-space-size=${memoryMb}`,
    ],
    // The whole environment: nothing of the grader's (API keys, tokens) reaches learner code.
    // It may signal no process but its own (see checker/run/walls/signal-wall.ts).
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      TZ: "UTC",
      LANG: "C.UTF-8",
      [SIGNALS_ENV]: "own",
      ...(tmp ? { TMPDIR: tmp, [FIXTURES_ENV]: fixturesIn(tmp) } : {}),
    },
  };
}

/**
 * Runner options for files run behind grading's walls outside a grading (`lab check --file`
 * on a file outside the workspace, the self-check): the worker reads the lab's compiled code
 * and packages and the runner's copies of the hidden tests, and writes only in a TMPDIR of its
 * own, where `exercises`' fixtures are laid first. Removed with the runner's scratch folder.
 */
export function walledRunnerOptions(labRoot: string, exercises: Exercise[], memoryMb: number): RunnerOptions {
  const scratchDir = realOrSame(ownedTempDir("lab-run-"));
  const tmp = join(scratchDir, "tmp");
  mkdirSync(tmp);
  for (const exercise of exercises) layFixtures(exercise.dir, exercise.id, fixturesIn(tmp));
  const sandbox = workerSandbox([join(labRoot, "node_modules"), join(labRoot, "dist"), scratchDir], memoryMb, tmp);
  return { env: sandbox.env, execArgv: sandbox.execArgv, memoryLimitMb: memoryMb, codeOverIpc: true, scratchDir };
}
