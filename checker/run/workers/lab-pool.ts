/**
 * A vitest pool whose workers are single-use child processes, like vitest's own "forks",
 * with two differences that matter here:
 *  - a spare process is forked ahead of time with the SDK and the tokenizer already
 *    loaded, so a rerun after a save does not pay Node's start-up;
 *  - a watchdog kills a worker (and anything it spawned) when its run passes the time
 *    limit, so `while (true) {}` in learner code costs that run only.
 */
import { fork, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { killGroup } from "../stopping/kill-group.js";
import { KeptProcesses } from "./kept-processes.js";
import { inPidNamespace, workerExit } from "../walls/pid-namespace.js";
import { BUNDLED_SDK_CONDITION } from "./sdk-bundle.js";
import { WARM_UP_ENV } from "./worker-env.js";
import { overMemoryLine, OutsideWatcher } from "../stopping/outside-watcher-link.js";
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from "vitest/node";
import { isWorkerResponse, MESSAGE, WORKER_ENTRY, WORKER_EXITED, workerResponse } from "../vitest-internals.js";
import { askForLeftovers, isLeftoverMessage, KEEPABLE_ENV, markFileStart } from "./leftovers.js";

export const POOL_NAME = "lab-forks";

export const POOL_MESSAGES = {
  aborted: "The runner was stopped, so no new worker is started.",
} as const;

export interface Watchdog {
  /**
   * A worker began running these test files; `kill` stops it for good. `reused`: the process
   * already ran an earlier file of the same owner (see SpareProcesses.serve).
   */
  started(files: string[], kill: () => void, reused: boolean): void;
  /** The worker is gone or done with these files. */
  finished(files: string[]): void;
  /** The worker died while running these files, before it reported them finished. */
  died(files: string[], how: { code: number | null; signal: NodeJS.Signals | null }): void;
}

interface SpawnSpec {
  entrypoint: string;
  execArgv: string[];
  env: Partial<NodeJS.ProcessEnv>;
}

/**
 * The young generation a worker starts with, in MB (V8 starts at 1 and grows it as a process
 * keeps allocating). A run allocates a few MB; started small, a warm spare collected garbage
 * ~2 times during it (~6 ms of a ~100 ms rerun), started at 16 it does not.
 */
export const YOUNG_GENERATION_MB = 16;

/** How long a run waits for its owner's process to come back from the check after its last file. */
const SETTLING_WAIT_MS = 1_000;

function spawnWorker(spec: SpawnSpec, preload: string, rehearse: boolean, keepable: boolean): { child: ChildProcess; namespaced: boolean } {
  const nodeArgs = [...spec.execArgv, `--min-semi-space-size=${YOUNG_GENERATION_MB}`, `--conditions=${BUNDLED_SDK_CONDITION}`, `--import=${preload}`];
  const namespace = inPidNamespace();
  const child = fork(spec.entrypoint, [], {
    env: { ...spec.env, [WARM_UP_ENV]: rehearse ? "1" : "", [KEEPABLE_ENV]: keepable ? "1" : "" } as NodeJS.ProcessEnv,
    // fork runs execPath with execArgv before the entry point: unshare, then node and its flags.
    ...(namespace ? { execPath: namespace.command, execArgv: [...namespace.args, ...nodeArgs] } : { execArgv: nodeArgs }),
    stdio: "pipe",
    serialization: "advanced",
    // Its own process group, so a kill also reaches whatever learner code spawned.
    detached: true,
  });
  return { child, namespaced: namespace !== null };
}

export function killTree(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  killGroup(child.pid);
}

/** Keeps at most one ready process per spawn spec, each watched by the runner's outside watcher. */
export class SpareProcesses {
  private readonly spares = new Map<string, ChildProcess>();
  /** Every process forked here that has not exited yet, spare or running. */
  private readonly live = new Set<ChildProcess>();
  /** Where each process's output goes once a run took it, for the guard's word on its death. */
  private readonly outputs = new WeakMap<ChildProcess, NodeJS.WritableStream>();
  private guard: OutsideWatcher | null = null;
  /** The processes started in a PID namespace (see pid-namespace.ts). */
  private readonly inNamespace = new WeakSet<ChildProcess>();
  private closed = false;
  private aborted = false;
  /** Whose code the runs are now (see serve); null: every run gets a process never used before. */
  private owner: string | null = null;
  /** Processes that ran a file of `owner`, kept for its next one. */
  private readonly kept = new KeptProcesses();

  /** `env`, when given, replaces the inherited environment (vitest's own variables are kept). */
  constructor(
    private readonly preload: string,
    private readonly env?: Record<string, string>,
    /** Whether a spare rehearses a hidden test's path while it waits. */
    private readonly warm = false,
    /** The resident memory a worker may use, in MB; null for no limit. */
    private readonly memoryLimitMb: number | null = null,
  ) {}

  /** Sends what the guard says about `child` (why it stopped it) to `output`. */
  outputTo(child: ChildProcess, output: NodeJS.WritableStream): void {
    this.outputs.set(child, output);
  }

  /** The spawn spec for a worker, with the environment replaced when the runner asked for that. */
  specFor(options: PoolOptions): SpawnSpec {
    const entrypoint = resolve(options.distPath, WORKER_ENTRY);
    if (!this.env) return { entrypoint, execArgv: options.execArgv, env: options.env };
    const vitestOwn = Object.fromEntries(Object.entries(options.env).filter(([k]) => /^(VITEST|TEST$|NODE_ENV$|FORCE_TTY$)/.test(k)));
    return { entrypoint, execArgv: options.execArgv, env: { ...this.env, ...vitestOwn } };
  }

  /**
   * The runs that follow run `owner`'s code: a process that ran one of its files may run the
   * next (with fresh module state: vitest resets its modules before every file), and no
   * process that ran anyone else's code ever does. Whatever was kept for another owner is
   * killed first, and gone when this resolves. `null`: a fresh process for every run.
   */
  async serve(owner: string | null): Promise<void> {
    if (owner !== null && owner === this.owner) return;
    this.owner = owner;
    await this.retire();
  }

  /**
   * Kills every kept process, and any on its way back from a run, and resolves once they are
   * gone (before their owner's temp folder is emptied): no process taken before this is kept.
   */
  async retire(): Promise<void> {
    this.generation++;
    await Promise.all([...this.settling]);
    await this.kept.killAll();
  }

  /** Counts retire() calls: a process taken in an earlier generation is never kept. */
  generation = 0;
  private readonly settling = new Set<Promise<void>>();

  /** A process between its run's end and its worker's stop(), kept or killed when `done` settles. */
  settle(done: Promise<void>): void {
    this.settling.add(done);
    void done.finally(() => this.settling.delete(done));
  }

  /**
   * A process for a run: the owner's kept one, else a spare, else a new one. `reused`: it ran a
   * file before. A process still being checked after its last file (see LabForkWorker.send) is
   * waited for, briefly: taking it back is cheaper than starting another.
   */
  async take(spec: SpawnSpec): Promise<{ child: ChildProcess; reused: boolean }> {
    if (this.owner !== null && this.settling.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all([...this.settling]), new Promise((resolve) => (timer = setTimeout(resolve, SETTLING_WAIT_MS)))]);
      clearTimeout(timer);
    }
    // After killAll() no learner code may start, however late vitest asks for a worker.
    if (this.aborted) throw new Error(POOL_MESSAGES.aborted);
    const key = JSON.stringify(spec);
    const kept = this.owner === null ? undefined : this.kept.take(key, this.owner);
    if (kept) return { child: kept, reused: true };
    const spare = this.spares.get(key);
    this.spares.delete(key);
    if (spare && spare.exitCode === null && spare.signalCode === null) {
      spare.stdin?.write("go\n"); // ends its warm-up rehearsal (see warm-up.ts)
      return { child: spare, reused: false };
    }
    return { child: this.fork(spec, false), reused: false };
  }

  /** Whether a process done with a file is kept for the owner's next one (see serve). */
  keeps(): boolean {
    return this.owner !== null && !this.closed && !this.aborted;
  }

  /** Keeps `child`, done with a file and unharmed, for the owner's next run; false when there is no owner to keep it for. */
  keep(spec: SpawnSpec, child: ChildProcess, generation: number): boolean {
    if (this.owner === null || generation !== this.generation || this.closed || this.aborted || child.exitCode !== null || child.signalCode !== null)
      return false;
    this.kept.add(JSON.stringify(spec), this.owner, child);
    return true;
  }

  /** Whether `child` runs in a PID namespace of its own. */
  namespaced(child: ChildProcess): boolean {
    return this.inNamespace.has(child);
  }

  private fork(spec: SpawnSpec, spare: boolean): ChildProcess {
    const { child, namespaced } = spawnWorker(spec, this.preload, spare && this.warm, this.owner !== null);
    if (namespaced) this.inNamespace.add(child);
    // A spare that dies just before a run takes it breaks this pipe; its exit reports the death.
    child.stdin?.on("error", () => {});
    this.live.add(child);
    child.once("exit", () => {
      this.live.delete(child);
      if (this.closed && this.live.size === 0) this.guard?.close();
    });
    this.guard ??= OutsideWatcher.start();
    this.guard.watch(child, this.memoryLimitMb, !namespaced, (report) => this.outputs.get(child)?.write(overMemoryLine(report)));
    return child;
  }

  refill(spec: SpawnSpec): void {
    const key = JSON.stringify(spec);
    if (this.closed || this.spares.has(key)) return;
    const child = this.fork(spec, true);
    child.stdout?.resume();
    child.stderr?.resume();
    child.once("exit", () => {
      if (this.spares.get(key) === child) this.spares.delete(key);
    });
    this.spares.set(key, child);
  }

  close(): void {
    this.closed = true;
    for (const child of this.spares.values()) killTree(child);
    this.spares.clear();
    void this.kept.killAll();
    // Otherwise the guard goes when the last process does (see fork).
    if (this.live.size === 0) this.guard?.close();
  }

  /** Kills every process forked here, running ones included, and forks no more. */
  killAll(): void {
    this.aborted = true;
    this.close();
    for (const child of this.live) killTree(child);
  }
}

class LabForkWorker implements PoolWorker {
  readonly name = POOL_NAME;
  readonly cacheFs: boolean;
  private child: ChildProcess | undefined;
  /** The files this worker runs and has not reported finished; its exit is a crash only for these. */
  private running: string[] = [];
  /** Requests ("start", "stop") sent to the worker that it has not answered yet. */
  private readonly unanswered = new Set<"start" | "stop">();
  /** vitest's exit and message listeners, each wrapped (see wrapped). */
  private readonly wrappers = new Map<(arg: any) => void, (...args: unknown[]) => void>();
  /** Every listener put on the process for this worker, taken off again when the process is kept. */
  private readonly attached: [string, (...args: any[]) => void][] = [];
  private readonly spec: SpawnSpec;
  /** The process ran a file before this worker took it (see SpareProcesses.serve). */
  private reused = false;
  /** Its last file finished without an error from vitest, and nothing stopped it. */
  private finishedWell = false;
  private killed = false;
  /** At "stop", the process was found fit to run its owner's next file, so it is kept, not killed. */
  private keeping = false;
  /** The spares' generation when this worker took its process (see SpareProcesses.retire). */
  private generation = 0;
  /** Settles when stop() has kept or killed the process (see SpareProcesses.settle). */
  private settled: (() => void) | null = null;

  constructor(
    private readonly options: PoolOptions,
    private readonly spares: SpareProcesses,
    private readonly watchdog: Watchdog,
    codeOverIpc: boolean,
  ) {
    this.spec = spares.specFor(options);
    // vitest hands transformed code to a worker as a file in its temp folder (cacheFs), or over IPC.
    this.cacheFs = !codeOverIpc;
  }

  private get process(): ChildProcess {
    if (!this.child) throw new Error("The lab worker process was already stopped.");
    return this.child;
  }

  private attach(child: ChildProcess, event: string, listener: (...args: any[]) => void, once = false): void {
    this.attached.push([event, listener]);
    if (once) child.once(event, listener);
    else child.on(event, listener);
  }

  on(event: string, callback: (arg: any) => void): void {
    this.attach(this.process, event, event === "exit" || event === "message" ? this.wrapped(event, callback) : callback);
  }

  off(event: string, callback: (arg: any) => void): void {
    const listener = this.wrappers.get(callback) || callback;
    this.process.off(event, listener);
    const at = this.attached.findIndex(([e, l]) => e === event && l === listener);
    if (at >= 0) this.attached.splice(at, 1);
  }

  /**
   * vitest's listener, as it must hear it. "exit": vitest turns a worker's exit into an
   * "error" event for the task it runs; a worker killed after its task finished or was
   * cancelled (abort(), a busy machine) has no task listening, and Node throws such an event
   * out of the exit handler, crashing lab itself. "message": the pool's own questions to the
   * worker (leftovers.ts) are not vitest's.
   */
  private wrapped(event: "exit" | "message", callback: (arg: any) => void): (...args: unknown[]) => void {
    const handler =
      event === "message"
        ? (message: unknown) => {
            if (!isLeftoverMessage(message)) callback(message);
          }
        : (...args: unknown[]) => {
            try {
              (callback as (...a: unknown[]) => void)(...args);
            } catch (err) {
              if (!(err instanceof Error && err.message === WORKER_EXITED)) throw err;
            }
          };
    this.wrappers.set(callback, handler as (...args: unknown[]) => void);
    return handler as (...args: unknown[]) => void;
  }

  /** Answers for the process, as it would, a request it need not see (see send). */
  private answer(child: ChildProcess, type: typeof MESSAGE.started | typeof MESSAGE.stopped): void {
    setImmediate(() => child.emit("message", workerResponse(type)));
  }

  send(message: WorkerRequest): void {
    if (message.type === MESSAGE.start || message.type === MESSAGE.stop) {
      this.unanswered.add(message.type);
      const child = this.process;
      if (child.exitCode !== null || child.signalCode !== null) {
        setImmediate(() => this.answerForDead(child));
        return;
      }
      // A kept process was started once; vitest's start-up (environment, module runner) stands.
      if (message.type === MESSAGE.start && this.reused) return this.answer(child, MESSAGE.started);
      // Perhaps kept for its owner's next file: vitest's teardown would leave it unable to run one.
      if (message.type === MESSAGE.stop && this.fitToKeep()) {
        this.spares.settle(
          new Promise<void>((done) => {
            const onExit = () => done();
            child.once("exit", onExit);
            this.settled = () => {
              child.off("exit", onExit);
              done();
            };
          }),
        );
        void askForLeftovers(child).then((found) => {
          if (found.length > 0 || !this.fitToKeep()) return this.forward(child, message);
          this.keeping = true;
          this.answer(child, MESSAGE.stopped);
        });
        return;
      }
    }
    if (message.type === MESSAGE.run || message.type === MESSAGE.collect) {
      this.running = message.context.files.map((f) => f.filepath);
      this.finishedWell = false;
      const child = this.process;
      const kill = () => {
        this.killed = true;
        killTree(child);
      };
      this.watchdog.started(this.running, kill, this.reused);
      if (this.spares.keeps()) markFileStart(child);
    }
    this.process.send(message);
  }

  /** Its file finished without an error, nothing stopped it, and its owner may have another. */
  private fitToKeep(): boolean {
    return this.finishedWell && !this.killed && this.running.length === 0 && this.spares.keeps();
  }

  private forward(child: ChildProcess, message: WorkerRequest): void {
    if (child.exitCode !== null || child.signalCode !== null) return this.answerForDead(child);
    child.send(message);
  }

  deserialize(data: unknown): unknown {
    if (isWorkerResponse(data) && data.type === MESSAGE.fileFinished) {
      this.watchdog.finished(this.running);
      // Forgotten at once: the next run of the same file may start before this process has exited.
      this.running = [];
      this.finishedWell = !data.error;
    }
    return data;
  }

  async start(): Promise<void> {
    const { child, reused } = await this.spares.take(this.spec);
    this.child = child;
    this.reused = reused;
    this.generation = this.spares.generation;
    const logger = this.options.project.vitest.logger;
    child.stdout?.pipe(logger.outputStream, { end: false });
    child.stderr?.pipe(logger.errorStream, { end: false });
    this.spares.outputTo(child, logger.errorStream);
    const exited = (code: number | null, signal: NodeJS.Signals | null) => {
      if (this.running.length > 0) {
        this.watchdog.died(this.running, workerExit(code, signal, this.spares.namespaced(child)));
        this.watchdog.finished(this.running);
        this.running = [];
      }
      this.answerForDead(child);
    };
    this.attach(child, "exit", exited, true);
    this.attach(child, "message", (message: unknown) => {
      if (!isWorkerResponse(message)) return;
      if (message.type === MESSAGE.started) this.unanswered.delete(MESSAGE.start);
      if (message.type === MESSAGE.stopped) this.unanswered.delete(MESSAGE.stop);
    });
  }

  /**
   * vitest waits a minute or more for "started" or "stopped" from a worker it asked to start
   * or stop. A worker that died first (killed by abort(), or by its own code) will never
   * answer, and vitest.close() would wait out that minute, so answer for it.
   */
  private answerForDead(child: ChildProcess): void {
    if (this.unanswered.has(MESSAGE.start)) child.emit("message", workerResponse(MESSAGE.started, new Error("The worker process ended before it started.")));
    if (this.unanswered.has(MESSAGE.stop)) child.emit("message", workerResponse(MESSAGE.stopped));
  }

  /** Takes this worker's listeners and pipes off the process, whose output goes nowhere until its next run. */
  private detach(child: ChildProcess): void {
    for (const [event, listener] of this.attached.splice(0)) child.off(event, listener);
    const logger = this.options.project.vitest.logger;
    child.stdout?.unpipe(logger.outputStream).resume();
    child.stderr?.unpipe(logger.errorStream).resume();
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    if (this.keeping) {
      this.detach(child);
      if (this.spares.keep(this.spec, child, this.generation)) {
        this.settled?.();
        // The owner's next file runs on this one; the spare is for whoever comes next.
        this.spares.refill(this.spec);
        return;
      }
    }
    const exited = new Promise<void>((done) => (child.exitCode !== null || child.signalCode !== null ? done() : child.once("exit", () => done())));
    // The worker has already reported and acknowledged "stop"; take its whole group down.
    killTree(child);
    await exited;
    this.settled?.();
    // Ready the next run's process now, while the learner reads the result.
    this.spares.refill(this.spec);
  }
}

/** `codeOverIpc`: send transformed code over IPC, so workers need not read vitest's temp folder. */
export function labPool(spares: SpareProcesses, watchdog: Watchdog, codeOverIpc = false): PoolRunnerInitializer {
  return { name: POOL_NAME, createPoolWorker: (options) => new LabForkWorker(options, spares, watchdog, codeOverIpc) };
}
