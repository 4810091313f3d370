/**
 * A vitest pool whose workers are single-use child processes, like vitest's own "forks",
 * with two differences that matter here:
 *  - a spare process is forked ahead of time with the SDK and the tokenizer already
 *    loaded, so a rerun after a save does not pay Node's start-up (spare-processes.ts);
 *  - a watchdog kills a worker (and anything it spawned) when its run passes the time
 *    limit, so `while (true) {}` in learner code costs that run only.
 */
import type { ChildProcess } from "node:child_process";
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from "vitest/node";
import { workerExit } from "../walls/pid-namespace.js";
import { isWorkerResponse, MESSAGE, WORKER_EXITED, workerResponse } from "../vitest-internals.js";
import { hasExited, killAndWait, killTree } from "../stopping/kill-group.js";
import type { SpareProcesses, SpawnSpec } from "./spare-processes.js";
import { sendTo } from "./channel.js";

export const POOL_NAME = "lab-forks";

export interface Watchdog {
  /**
   * A worker began running these test files; `kill` stops it for good. `reused`: the process
   * already ran an earlier file of the same owner (see SpareProcesses.serve).
   */
  started(files: string[], kill: () => void, reused: boolean): void;
  /** The worker is gone or done with these files. */
  finished(files: string[]): void;
  /** The worker's channel carried what its tests never sent (see channel.ts); it is being killed. */
  forged(files: string[], why: string): void;
  /** The worker died while running these files, before it reported them finished. */
  died(files: string[], how: { code: number | null; signal: NodeJS.Signals | null }): void;
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
   * out of the exit handler, crashing lab itself.
   */
  private wrapped(event: "exit" | "message", callback: (arg: any) => void): (...args: unknown[]) => void {
    if (event === "message") return callback;
    const handler = (...args: unknown[]) => {
      try {
        (callback as (...a: unknown[]) => void)(...args);
      } catch (err) {
        if (!(err instanceof Error && err.message === WORKER_EXITED)) throw err;
      }
    };
    this.wrappers.set(callback, handler);
    return handler;
  }

  /** Answers for the process, as it would, a request it need not see (see send). */
  private answer(child: ChildProcess, type: typeof MESSAGE.started | typeof MESSAGE.stopped): void {
    setImmediate(() => child.emit("message", workerResponse(type)));
  }

  send(message: WorkerRequest): void {
    if (message.type === MESSAGE.start || message.type === MESSAGE.stop) {
      this.unanswered.add(message.type);
      const child = this.process;
      if (hasExited(child)) {
        setImmediate(() => this.answerForDead(child));
        return;
      }
      // A kept process was started once; vitest's start-up (environment, module runner) stands.
      if (message.type === MESSAGE.start && this.reused) return this.answer(child, MESSAGE.started);
      // Kept for its owner's next file: vitest's teardown would leave it unable to run one.
      // Nothing of the file's learner code outlives its realm, so nothing needs checking first.
      if (message.type === MESSAGE.stop && this.fitToKeep()) {
        this.keeping = true;
        // A run that starts before vitest calls stop() waits for this process rather than forking one.
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
        return this.answer(child, MESSAGE.stopped);
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
    }
    sendTo(this.process, message);
  }

  /** Its file finished without an error, nothing stopped it, and its owner may have another. */
  private fitToKeep(): boolean {
    return this.finishedWell && !this.killed && this.running.length === 0 && this.spares.keeps();
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
    this.attach(child, "forged", (why: string) => {
      this.watchdog.forged(this.running, why);
      this.killed = true;
      killTree(child);
    });
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
    // The worker has already reported and acknowledged "stop"; take its whole group down.
    await killAndWait(child);
    this.settled?.();
    // Ready the next run's process now, while the learner reads the result.
    this.spares.refill(this.spec);
  }
}

/** `codeOverIpc`: send transformed code over IPC, so workers need not read vitest's temp folder. */
export function labPool(spares: SpareProcesses, watchdog: Watchdog, codeOverIpc = false): PoolRunnerInitializer {
  return { name: POOL_NAME, createPoolWorker: (options) => new LabForkWorker(options, spares, watchdog, codeOverIpc) };
}
