/**
 * The engine behind `lab start`: a watcher on the learner's file, a scheduler that turns
 * saves into runs, and the warm runner. It emits one typed stream of events; the Ink
 * screen and the plain printer are two consumers of it.
 */
import { readFileSync } from "node:fs";
import type { RunEvent, RunListener, RunResult } from "../../checker/model/result.js";
import type { RunRequest } from "../../checker/run/runner.js";
import type { Exercise } from "../../checker/model/exercises.js";
import { watchFile as chokidarWatch, type FileWatch, type WatchFile } from "./file-watcher.js";
import { inLearnerWords } from "../report/learner-words.js";
import type { TypeCheck, TypeErrorReport } from "../typecheck/type-checker.js";
import { RunScheduler } from "./run-scheduler.js";
import { SilenceCheck, statFile, type FileStamp, type Fingerprint, type StatFile } from "./silence-check.js";
import { abortUntilSettled } from "./stop-runs.js";
import { realTimers, type Timers } from "./timers.js";

function readIfThere(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

const sameBytes = (a: Buffer | null, b: Buffer | null) => (a === null || b === null ? a === b : a.equals(b));

export type SessionEvent =
  | RunEvent
  /** A save was seen; a run follows once saving is quiet (or after the run in flight). */
  | { type: "save-seen" }
  /** The file's content changed on disk but the watcher said nothing. */
  | { type: "watcher-silent" }
  /** After a silence, the watcher reported a change again: saves reach lab. */
  | { type: "watcher-heard" }
  | { type: "file-missing"; file: string }
  /** The watcher itself failed; saves may go unnoticed. */
  | { type: "watch-error"; message: string }
  /** The runner itself failed (not the learner's code). */
  | { type: "run-crashed"; message: string }
  /** A save arrived while a run was going: that run is being stopped so the new save runs now. */
  | { type: "run-stopping" }
  /** The run stopped for a newer save has ended; its results are dropped, the new run follows. */
  | { type: "run-stopped" }
  /** The type checker's word on the file a run just tested: a warning beside the verdict, never a failure. */
  | { type: "type-errors"; errors: TypeErrorReport[] };

export type SessionListener = (event: SessionEvent) => void;

export interface RunnerLike {
  run(request: RunRequest, listener?: RunListener): Promise<RunResult>;
  /** Kills every worker now, the one running included; only for shutting down. */
  abort?(): void;
  /** Stops the run in flight and stays usable, so the next run starts at once. */
  stopRun?(): void;
}

export interface SessionOptions {
  runner: RunnerLike;
  exercise: Exercise;
  file: string;
  poll: boolean;
  timers?: Timers;
  watchFile?: WatchFile;
  stat?: StatFile;
  /** What the silence check compares: the file's content hash unless a test passes its own. */
  fingerprint?: Fingerprint;
  debounceMs?: number;
  /** Checks the file's types after each run; its word arrives as a "type-errors" event. */
  typeCheck?: TypeCheck;
}

export class WatchSession {
  private readonly listeners = new Set<SessionListener>();
  private readonly scheduler: RunScheduler;
  private readonly silence: SilenceCheck | null;
  private watcher: FileWatch | null = null;
  /** The file as the latest run (or the one in flight) started from: its bytes and its stamp. */
  private lastRead: { bytes: Buffer; stamp: FileStamp } | null = null;
  /** The run in flight; `superseded` once a newer save stopped it. */
  private current: { superseded: boolean } | null = null;
  /** A type check is going; `again` when another run finished meanwhile. */
  private typing: { again: boolean } | null = null;

  private constructor(private readonly options: SessionOptions) {
    const timers = options.timers ?? realTimers;
    this.scheduler = new RunScheduler(() => this.runOnce(), timers, options.debounceMs);
    // A polling watcher cannot go silent; a native one can, on some network and VM mounts.
    this.silence = options.poll
      ? null
      : new SilenceCheck(
          options.file,
          () => this.missedSave(),
          timers,
          options.fingerprint,
          () => this.emit({ type: "watcher-heard" }),
        );
  }

  /** Starts watching; resolves once saves are being noticed. Call `rerun()` for the first run. */
  static async start(options: SessionOptions): Promise<WatchSession> {
    const session = new WatchSession(options);
    const watchFile = options.watchFile ?? chokidarWatch;
    session.watcher = await watchFile(
      options.file,
      { poll: options.poll },
      {
        onSave: () => session.saved(),
        // Every event the watcher reports proves it is not silent, a deletion included.
        onMissing: () => {
          session.silence?.heard();
          session.emit({ type: "file-missing", file: options.file });
        },
        onError: (error) => {
          session.silence?.heard();
          session.emit({ type: "watch-error", message: error.message });
        },
      },
    );
    session.silence?.start();
    return session;
  }

  subscribe(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Run now, or right after the run in flight. */
  rerun(): void {
    this.scheduler.trigger();
  }

  get running(): boolean {
    return this.scheduler.busy;
  }

  /**
   * Stops watching and waits for the run in flight, so nothing outlives the session;
   * with `stopRun` that run is cut short instead of finishing (quitting).
   */
  async close({ stopRun = false } = {}): Promise<void> {
    this.scheduler.close();
    this.silence?.close();
    const idle = this.scheduler.idle();
    const stopped = stopRun && this.scheduler.busy ? abortUntilSettled(this.options.runner, idle, this.options.timers) : idle;
    const watcher = this.watcher;
    this.watcher = null;
    await watcher?.close();
    await stopped;
    this.options.typeCheck?.resume?.(); // a save whose run never came (closed during its debounce) paused it
    this.listeners.clear();
  }

  private saved(): void {
    this.silence?.heard();
    if (this.alreadyRun()) return;
    this.emit({ type: "save-seen" });
    this.options.typeCheck?.pause?.(); // its check is of a file that has changed; the save's run comes first
    this.supersede();
    this.scheduler.saved();
  }

  /**
   * A new save makes the run in flight worthless: its code is not the file's any more. It is
   * stopped at once (a loop that never ends would otherwise hold the screen to the time limit)
   * and the new save runs next.
   */
  private supersede(): void {
    const run = this.current;
    if (!run || run.superseded || !this.options.runner.stopRun) return;
    run.superseded = true;
    this.emit({ type: "run-stopping" });
    this.options.runner.stopRun();
  }

  /**
   * An event for a write a run has already started from: nothing was written since (same time
   * and size) and the bytes are the same. The watcher reports some writes twice, or late,
   * after the session found the change itself; running them again only repeats that run.
   * Saving identical text on purpose still reruns, since it moves the file's time.
   */
  private alreadyRun(): boolean {
    const last = this.lastRead;
    if (!last) return false;
    const stamp = (this.options.stat ?? statFile)(this.options.file);
    if (stamp === null || stamp.mtimeMs !== last.stamp.mtimeMs || stamp.size !== last.stamp.size) return false;
    return sameBytes(last.bytes, readIfThere(this.options.file));
  }

  private missedSave(): void {
    this.emit({ type: "watcher-silent" });
    this.emit({ type: "save-seen" });
    this.options.typeCheck?.pause?.();
    this.scheduler.trigger();
  }

  private async runOnce(): Promise<void> {
    const { runner, exercise, file } = this.options;
    // What is on disk now is what this run tests, so a write that landed after the save's
    // event (cp truncates, then writes) is not one the watcher missed: no false "silent" alarm.
    this.silence?.read();
    const stamp = (this.options.stat ?? statFile)(file);
    const before = readIfThere(file);
    this.lastRead = before && stamp ? { bytes: before, stamp } : null;
    const run = { superseded: false };
    this.current = run;
    // From here to its results the run has the CPU: a type check going is stopped where it is.
    this.options.typeCheck?.pause?.();
    let finished = false;
    try {
      await runner.run({ exercise, implFile: file }, (event) => {
        if (run.superseded) return;
        this.emit(event.type === "run-finished" ? { ...event, result: inLearnerWords(event.result, exercise) } : event);
      });
      // The save that stopped it has its own run coming (the scheduler has it).
      if (run.superseded) return this.emit({ type: "run-stopped" });
      // The watcher drops a change that follows another within 50 ms; comparing what the file
      // holds now with what the run started from is what guarantees no save goes unrun.
      if (!sameBytes(before, readIfThere(file))) this.scheduler.trigger();
      finished = true;
    } catch (err) {
      // The save that stopped it has its own run coming (the scheduler has it).
      if (run.superseded) return this.emit({ type: "run-stopped" });
      const missing = (err as NodeJS.ErrnoException).code === "ENOENT";
      this.emit(missing ? { type: "file-missing", file } : { type: "run-crashed", message: (err as Error).message });
    } finally {
      if (this.current === run) this.current = null;
      // The results are out (the screen draws them as they are emitted): the checker may go on.
      this.options.typeCheck?.resume?.();
      if (finished) this.checkTypes();
    }
  }

  /**
   * Type-checks the file once its run has finished, so the verdict never waits for it; checks
   * do not overlap, and runs that finish during one are covered by one more check after it,
   * whose word replaces that one's (said about a file that has changed since).
   */
  private checkTypes(): void {
    const typeCheck = this.options.typeCheck;
    if (!typeCheck) return;
    if (this.typing) return void (this.typing.again = true);
    const state = (this.typing = { again: false });
    void typeCheck
      .check(this.options.file)
      .then((errors) => {
        if (errors && !state.again && this.listeners.size > 0) this.emit({ type: "type-errors", errors });
      })
      .finally(() => {
        this.typing = null;
        if (state.again) this.checkTypes();
      });
  }

  private emit(event: SessionEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
