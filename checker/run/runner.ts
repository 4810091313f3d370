/**
 * Runs an exercise's hidden tests against any implementation file on one warm vitest.
 * The test imports "lab:impl"; a plugin resolves it, per test file, to a module that loads
 * the file bound for this run in a realm of its own (checker/realm/), so the test is never
 * edited. Learner code only ever runs in that realm, inside the pool's child processes:
 * never in this process, and never beside the test.
 */
import { copyFileSync, mkdirSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { createVitest, type TestModule, type Vitest } from "vitest/node";
import { labPaths } from "../paths.js";
import type { Exercise } from "../model/exercises.js";
import type { Binding } from "./binding.js";
import { bindingPlugin, bundleOf, implModuleId } from "./binding-plugin.js";
import { labPool, type Watchdog } from "./workers/lab-pool.js";
import type { SpareProcesses } from "./workers/spare-processes.js";
import { sparesFor } from "./first-worker.js";
import type { RunnerOptions } from "./runner-options.js";
import { ownedTempDir } from "./walls/owned-temp.js";
import { collectOutcome, fileErrorOf, unhandledErrorOf } from "./outcome.js";
import { withEnvironmentKept } from "./kept-environment.js";
import { withoutAddedSignalHandlers } from "./quiet-signals.js";
import { RUN_MESSAGES, summarise, type FileError, type RunListener, type RunResult } from "../model/result.js";
import { runReporter } from "./run-reporter.js";
import { POOL_ERROR, TEST_PATH_KEY } from "./vitest-internals.js";
import { CHANNEL_MESSAGES } from "./workers/channel.js";
import { HANG_LIMIT_MS } from "../model/limits.js";

export type { RunnerOptions } from "./runner-options.js";

export interface RunRequest {
  exercise: Exercise;
  implFile: string;
  /**
   * Whose code `implFile` is (a learner, when grading). A batch whose requests all name one
   * owner may run on a worker process kept from that owner's previous batch, each file with
   * fresh modules and a fresh realm for its code (whatever a realm started ends with it); a
   * process never runs two owners' code, nor a request without one.
   */
  owner?: string;
}

type Request = RunRequest & { listener: RunListener | undefined; copy: boolean };

/** How a run on a reused process may end for a reason that may not be the file's own (see execute). */
const DOUBTFUL = new Set<FileError["kind"]>(["crash", "unhandled", "timeout"]);

/** Whether an unhandled error belongs to `testFile`: tagged with its path, or the only file there is. */
function tracedTo(error: unknown, testFile: string, batchSize: number): boolean {
  const path = (error as { [TEST_PATH_KEY]?: string } | null)?.[TEST_PATH_KEY];
  if (path) return path === testFile;
  // A pool-level error names no file; a dying worker is already traced through the watchdog.
  if (POOL_ERROR.test(String((error as Error)?.message ?? error))) return false;
  return batchSize === 1;
}

export class Runner {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** The "lab:impl" module each hidden test's transform names (see binding-plugin.ts). */
  private readonly boundTo = new Map<string, string>();

  private constructor(
    private readonly bindings: Map<string, Binding>,
    private readonly vitest: Vitest,
    private readonly spares: SpareProcesses,
    private readonly timeoutSeconds: number,
    private readonly scratch: string,
  ) {}

  /** `spares`: the worker processes, when the caller started them ahead of vitest (see first-worker.ts). */
  static async create(options: RunnerOptions = {}, spares = sparesFor(options)): Promise<Runner> {
    const paths = labPaths();
    const timeoutSeconds = options.timeoutSeconds ?? 10;
    const bindings = new Map<string, Binding>();
    const watchdog: Watchdog = {
      started(files, kill, reused) {
        for (const file of files) {
          const binding = bindings.get(file);
          if (!binding) continue;
          binding.kill = kill;
          binding.reused = reused;
          if (binding.stopped) {
            kill();
            continue;
          }
          binding.timer = setTimeout(() => {
            binding.timedOut = true;
            kill();
          }, timeoutSeconds * 1000);
        }
      },
      died(files, how) {
        for (const file of files) {
          const binding = bindings.get(file);
          if (binding) binding.died = how;
        }
      },
      forged(files, why) {
        for (const file of files) {
          const binding = bindings.get(file);
          if (binding) binding.forged = why;
        }
      },
      finished(files) {
        for (const file of files) {
          const binding = bindings.get(file);
          if (binding?.timer) clearTimeout(binding.timer);
          if (binding) binding.timer = null;
        }
      },
    };
    const sink = options.output ?? new PassThrough().resume();
    // A runner that never came to be leaves no worker behind, one forked ahead included.
    const vitest = await withoutAddedSignalHandlers(() =>
      withEnvironmentKept(() =>
        createVitest(
          "test",
          {
            config: false,
            root: paths.root,
            watch: false,
            pool: labPool(spares, watchdog, options.codeOverIpc ?? false),
            maxWorkers: options.maxWorkers ?? 1,
            isolate: true,
            fileParallelism: true,
            // A test that takes this long is hung (see model/limits.ts); the realm's synchronous calls share the limit.
            testTimeout: HANG_LIMIT_MS,
            hookTimeout: HANG_LIMIT_MS,
            teardownTimeout: 1_000,
            reporters: [runReporter(bindings)],
            execArgv: options.execArgv ?? [],
            server: { deps: { external: [/\/dist\/checker\//, /\/dist\/exercises\//, /node_modules/] } },
            passWithNoTests: true,
            includeTaskLocation: options.taskLocations ?? true,
            printConsoleTrace: false,
          },
          {
            plugins: [bindingPlugin(bindings, { test: paths.labTest, impl: paths.labImpl, code: [join(paths.root, "node_modules"), paths.dist] })],
            server: { watch: null },
            logLevel: "silent",
            cacheDir: join(paths.root, "node_modules/.cache/lab-vite"),
          },
          { stdout: sink as NodeJS.WriteStream, stderr: sink as NodeJS.WriteStream },
        ),
      ),
    ).catch((error: unknown) => {
      spares.killAll();
      throw error;
    });
    const scratch = options.scratchDir ?? ownedTempDir("lab-run-");
    mkdirSync(scratch, { recursive: true });
    return new Runner(bindings, vitest, spares, timeoutSeconds, scratch);
  }

  /** One run of one exercise's hidden tests against `implFile`. Runs are queued, never overlapped. */
  run(request: RunRequest, listener?: RunListener): Promise<RunResult> {
    return this.enqueue(async () => (await this.execute([{ ...request, listener, copy: false }]))[0]!);
  }

  /** Several runs at once (up to maxWorkers in parallel), each on a private copy of its hidden test. */
  runMany(requests: RunRequest[], listener?: (index: number) => RunListener | undefined): Promise<RunResult[]> {
    return this.enqueue(() => this.execute(requests.map((r, i) => ({ ...r, listener: listener?.(i), copy: true }))));
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error("The runner is closed."));
    const next = this.queue.then(job, job);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Kills the processes kept for the last owner (see RunRequest.owner) and resolves once they
   * are gone: after this, nothing of that owner's code runs anywhere.
   */
  retireWorkers(): Promise<void> {
    return this.enqueue(() => this.spares.retire());
  }

  private async execute(requests: Request[]): Promise<RunResult[]> {
    const owners = new Set(requests.map((r) => r.owner ?? null));
    const owner = owners.size === 1 ? [...owners][0]! : null;
    await this.spares.serve(owner);
    const { results, reused } = await this.executeOnce(requests);
    if (owner === null) return results;
    // A reused process is not quite what the file would have met alone: its earlier realms are
    // gone, but what they did to the process as a whole (descriptors left open, V8's flags) is
    // not, so a crash, a stray error or a hang there counts only once a fresh process confirms it.
    const doubtful = results.flatMap((result, i) => (reused[i] && result.error && DOUBTFUL.has(result.error.kind) ? [i] : []));
    if (doubtful.length === 0) return results;
    await this.spares.serve(null);
    const again = await this.executeOnce(doubtful.map((i) => requests[i]!));
    doubtful.forEach((i, k) => (results[i] = again.results[k]!));
    return results;
  }

  /** Each request's result, and whether it ran on a process reused from its owner's earlier file. */
  private async executeOnce(requests: Request[]): Promise<{ results: RunResult[]; reused: boolean[] }> {
    const started = performance.now();
    const batch: Binding[] = requests.map((request, i) => {
      let testFile = realpathSync(request.exercise.hiddenTest);
      if (request.copy) {
        const dir = join(this.scratch, `${i}-${request.exercise.id}`);
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        testFile = join(dir, "hidden.test.ts");
        copyFileSync(request.exercise.hiddenTest, testFile);
      }
      return {
        exercise: request.exercise,
        implFile: realpathSync(request.implFile),
        testFile,
        listener: request.listener,
        tests: new Map(),
        timedOut: false,
        timer: null,
        died: null,
        forged: null,
        kill: null,
        stopped: false,
        reused: false,
      };
    });
    const project = this.vitest.getRootProject();
    for (const binding of batch) {
      this.bindings.set(binding.testFile, binding);
      // The learner's file is bundled anew for every run; the hidden test, whose transform names
      // the bundle's module, is transformed again only when it is bound to another file.
      const impl = implModuleId(binding);
      this.vitest.invalidateFile(impl);
      if (this.boundTo.get(binding.testFile) !== impl) this.vitest.invalidateFile(binding.testFile);
      this.boundTo.set(binding.testFile, impl);
      binding.listener?.({ type: "run-started", exercise: binding.exercise.id, file: binding.implFile });
    }
    // One file (a save, a check) is bundled while its worker loads the hidden test, which asks for
    // it by importing "lab:impl"; a batch's files are bundled as their workers ask, a few at a time.
    if (batch.length === 1) void bundleOf(this.bindings, batch[0]!);
    // What vitest holds from the file's last run (another learner's, when grading) must not
    // stand in for this run's should its worker die before reporting the file.
    this.vitest.state.clearFiles(
      project,
      batch.map((b) => b.testFile),
    );
    const exitCode = process.exitCode;
    try {
      const specs = batch.map((b) => project.createSpecification(b.testFile));
      const outcome = await this.vitest.rerunTestSpecifications(specs, false);
      const results = batch.map((binding) => {
        const module = outcome.testModules.find((m: TestModule) => m.moduleId === binding.testFile);
        // An error counts against a file only when it can be traced to it: another learner's
        // crash in the same batch must never fail this one's row.
        const own = outcome.unhandledErrors.filter((e) => tracedTo(e, binding.testFile, batch.length)).map(unhandledErrorOf);
        const result = this.resultOf(binding, module, own, performance.now() - started);
        binding.listener?.({ type: "run-finished", result });
        return result;
      });
      return { results, reused: batch.map((b) => b.reused) };
    } finally {
      // vitest marks its process failed when a test fails; here failing tests are the run's
      // result, and the command that owns the runner decides its own exit code.
      process.exitCode = exitCode;
      for (const binding of batch) {
        if (binding.timer) clearTimeout(binding.timer);
        this.bindings.delete(binding.testFile);
      }
    }
  }

  private resultOf(binding: Binding, module: TestModule | undefined, unhandled: FileError[], ms: number): RunResult {
    const tests = collectOutcome(binding, module);
    let error: FileError | null = null;
    if (binding.forged) {
      // Nothing that worker reported counts, whatever it said before.
      error = { kind: "forged", message: CHANNEL_MESSAGES.forged(binding.forged) };
      for (const test of tests) {
        test.state = "not-run";
        test.failure = { message: error.message };
      }
    } else if (binding.timedOut) {
      error = { kind: "timeout", message: RUN_MESSAGES.timeout(this.timeoutSeconds) };
      for (const test of tests) {
        if (test.state !== "passed" && test.state !== "failed") {
          test.state = "not-run";
          test.failure = { message: RUN_MESSAGES.notRun(this.timeoutSeconds) };
        }
      }
    } else {
      const died = binding.died && { kind: "crash" as const, message: RUN_MESSAGES.died(binding.died.signal ?? `exit code ${binding.died.code}`) };
      error = fileErrorOf(binding, module) ?? died ?? unhandled[0] ?? null;
    }
    if (error) binding.listener?.({ type: "file-error", error });
    return summarise(binding.exercise.id, binding.implFile, tests, error, ms);
  }

  /**
   * Stops the run in flight, its worker killed now (or the moment it gets one), while the
   * runner stays usable: the next run starts on a fresh worker at once. For a save that
   * supersedes a run, e.g. one stuck in a loop that would otherwise hold it to the time limit.
   * The stopped run still resolves, with what it had.
   */
  stopRun(): void {
    for (const binding of this.bindings.values()) {
      binding.stopped = true;
      binding.kill?.();
    }
  }

  /**
   * Kills every worker process now, running ones included: a run in flight ends early with
   * what it has. For a caller that is shutting down (Ctrl-C) and must not leave learner
   * code running; call close() after it.
   */
  abort(): void {
    this.spares.killAll();
    void this.vitest.cancelCurrentRun("keyboard-input");
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    this.spares.close();
    await this.vitest.close();
    rmSync(this.scratch, { recursive: true, force: true });
  }
}
