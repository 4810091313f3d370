/**
 * Every undocumented part of vitest that the runner leans on, in one place: the worker
 * protocol a custom pool must speak, the text vitest gives a dying worker, the key it hangs
 * on errors, and the lazily imported chunks a warm spare pre-imports. They belong to the
 * pinned vitest (4.1.12). None is a public API, and no verdict is read through them: results
 * come from vitest's reporter API (outcome.ts). Learner code never meets vitest at all (it
 * runs in a realm of its own, checker/realm/), so nothing here describes what vitest does to
 * a process that learner code could see or change.
 *
 * Upgrading vitest:
 *  1. Pin the new version, `npm ci`, then run test/checker/run/vitest-internals.test.ts: it
 *     looks for each name and text below in the installed vitest and fails on the first one
 *     gone. Find its new spelling in node_modules/vitest/dist and change it here only.
 *  2. LAZY_RUN_CHUNKS carry build hashes: take the new names from the test's failure.
 *  3. Run the whole suite: the runner, pool and grading tests drive a real vitest through
 *     these paths (a crash, a timeout, a forged frame, a syntax error, a reused worker).
 *  4. Run `npm run bench:rerun` and `bench:grade` before and after: a missed chunk or a
 *     changed reset shows up there first.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { isatty } from "node:tty";

/** The forks pool's worker entry, relative to vitest's dist folder (our pool forks it itself). */
export const WORKER_ENTRY = "workers/forks.js";

/** What a message from a worker to the pool, and from the pool to a worker, is marked with. */
export interface WorkerResponse {
  __vitest_worker_response__?: boolean;
  type?: string;
  error?: unknown;
}
export interface WorkerRequest {
  __vitest_worker_request__?: boolean;
  type?: string;
}
export const isWorkerResponse = (message: unknown): message is WorkerResponse => (message as WorkerResponse | null)?.__vitest_worker_response__ === true;
export const isWorkerRequest = (message: unknown): message is WorkerRequest => (message as WorkerRequest | null)?.__vitest_worker_request__ === true;
export const workerResponse = (type: string, error?: Error): WorkerResponse => ({ __vitest_worker_response__: true, type, ...(error ? { error } : {}) });

/** The message types the pool reads or answers. */
export const MESSAGE = {
  start: "start",
  started: "started",
  stop: "stop",
  stopped: "stopped",
  run: "run",
  collect: "collect",
  fileFinished: "testfileFinished",
} as const;

/** The error vitest's pool makes of a worker's exit, and of its "error" event. */
export const WORKER_EXITED = "Worker exited unexpectedly";
export const WORKER_EMITTED_ERROR = "emitted error";
export const POOL_ERROR = new RegExp(`${WORKER_EXITED}|${WORKER_EMITTED_ERROR}`);

/** The key vitest tags an unhandled error with the test file it came from. */
export const TEST_PATH_KEY = "VITEST_TEST_PATH";

/**
 * Two chunks vitest's worker imports lazily at the start of every run (its console and its
 * snapshot environment): ~8 ms a run, paid after the save. A warm spare imports them while
 * it waits.
 */
export const LAZY_RUN_CHUNKS = ["console.3WNpx0tS.js", "node.COQbm6gK.js"] as const;

export function vitestDist(): string {
  return join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "dist");
}

export function lazyRunChunkFiles(): string[] {
  return LAZY_RUN_CHUNKS.map((name) => join(vitestDist(), "chunks", name));
}

/** What the pool is told to fork a worker with: vitest's PoolOptions, the part our pool reads. */
export interface WorkerOptions {
  distPath: string;
  execArgv: string[];
  env: Record<string, string | undefined>;
}

/**
 * The options vitest's pool gives a forked worker (cli-api's resolveOptions, then
 * resolveConditions with vite's default SSR conditions, then the configuration's execArgv and
 * env), worked out without loading vitest, so the first worker can start while vitest loads
 * (first-worker.ts). A wrong guess costs one process that is never used: a run only takes a
 * worker forked with the options vitest does give.
 */
export function guessedWorkerOptions(configExecArgv: string[]): WorkerOptions {
  const env = process.env;
  const dist = vitestDist();
  return {
    distPath: dist,
    execArgv: [
      ...process.execArgv.filter((arg) => /^--(cpu-prof|heap-prof|diagnostic-dir)/.test(arg)),
      "--experimental-import-meta-resolve",
      "--require",
      join(dist, "../suppress-warnings.cjs"),
      "--conditions",
      "node",
      "--conditions",
      env["NODE_ENV"] === "production" ? "production" : "development",
      ...configExecArgv,
    ],
    env: { ...env, TEST: "true", VITEST: "true", NODE_ENV: env["NODE_ENV"] || "test", VITEST_MODE: "RUN", FORCE_TTY: isatty(1) ? "true" : "" },
  };
}
