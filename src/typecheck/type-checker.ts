import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { setPriority } from "node:os";
import { join } from "node:path";
import { labPaths } from "../../checker/paths.js";
import type { TypeCheckReply, TypeErrorReport } from "./type-check-protocol.js";

export type { TypeErrorReport } from "./type-check-protocol.js";

/** What the live screen and lab check need of a type checker; null results mean "nothing to say". */
export interface TypeCheck {
  /** The type errors of `file` as it is on disk now; null when it cannot be checked. */
  check(file: string): Promise<TypeErrorReport[] | null>;
  /** Stops the checker where it is, so a test run has the CPU to itself; a check asked for meanwhile waits. */
  pause?(): void;
  /** Lets a paused checker carry on. */
  resume?(): void;
  close(): Promise<void>;
}

/** What `settledOr` hands back for a promise still pending. */
export const PENDING: unique symbol = Symbol("pending");

/**
 * The promise's value if it has settled by now, else PENDING, at once: a verdict that is ready
 * never waits for a warning (a type check on a starved core can take minutes).
 */
export function settledOr<T>(promise: Promise<T>): Promise<T | typeof PENDING> {
  return Promise.race([promise, Promise.resolve(PENDING)]);
}

/** The lowest scheduling priority: a type check gives way to a test run wanting the same CPU. */
const IDLE_PRIORITY = 19;

/**
 * A warm TypeScript language service in a child process at the lowest priority. The first
 * check builds the program (a second or two); later ones reuse it. Without the typescript
 * package (a production install), every check says nothing and nothing else changes.
 *
 * The priority alone does not keep it off a test run's CPU: Linux weighs each session's
 * processes together, and the runner's workers have sessions of their own. So the live
 * screen pauses it (SIGSTOP) for every run. It stays in lab's process group, so a checker
 * left stopped when lab dies gets SIGHUP and SIGCONT from the kernel and ends.
 */
export class TypeChecker implements TypeCheck {
  private worker: ChildProcess | null = null;
  private readonly waiting = new Map<number, (errors: TypeErrorReport[] | null) => void>();
  private nextId = 0;
  private available: Promise<boolean> | null = null;
  private closed = false;
  private paused = false;

  constructor(private readonly root = labPaths().root) {}

  /** The worker starts at the first check, not before: its warm-up should not compete with a first run. */
  private start(): Promise<boolean> {
    if (this.available) return this.available;
    const worker = fork(join(this.root, "dist/src/typecheck/type-check-worker.js"), [this.root], {
      stdio: ["ignore", "ignore", "ignore", "ipc"],
      execArgv: [],
    });
    try {
      if (worker.pid !== undefined) setPriority(worker.pid, IDLE_PRIORITY);
    } catch {
      // a platform that refuses: the check still works, at normal priority
    }
    // Held open only while an answer is awaited (hold()), so an idle checker never keeps lab running.
    worker.unref();
    this.worker = worker;
    this.available = new Promise((resolve) => {
      worker.once("message", (first: { ready: boolean }) => {
        this.hold();
        resolve(first.ready);
      });
      worker.once("error", () => resolve(false));
      worker.once("exit", () => resolve(false));
    });
    worker.on("message", (reply: TypeCheckReply) => {
      if (typeof reply.id !== "number") return;
      this.waiting.get(reply.id)?.(reply.errors);
      this.waiting.delete(reply.id);
      this.hold();
    });
    const giveUp = () => {
      for (const done of this.waiting.values()) done(null);
      this.waiting.clear();
    };
    worker.on("error", giveUp);
    worker.on("exit", giveUp);
    return this.available;
  }

  /** Keeps the IPC channel (and so lab) alive exactly while a check is awaited. */
  private hold(): void {
    if (this.waiting.size > 0) this.worker?.channel?.ref();
    else this.worker?.channel?.unref();
  }

  async check(file: string): Promise<TypeErrorReport[] | null> {
    if (this.closed || !(await this.start())) return null;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return null;
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.hold();
      this.worker!.send({ id, file, text });
    });
  }

  /** The checker's process id once it has started; for diagnostics and tests. */
  get pid(): number | undefined {
    return this.worker?.pid;
  }

  pause(): void {
    if (!this.paused && this.signal("SIGSTOP")) this.paused = true;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.signal("SIGCONT");
  }

  /** Sends a job-control signal to a live checker; false where there is none to send or no such signals (Windows). */
  private signal(signal: "SIGSTOP" | "SIGCONT"): boolean {
    const worker = this.worker;
    if (!worker || process.platform === "win32" || worker.exitCode !== null || worker.signalCode !== null) return false;
    try {
      return worker.kill(signal);
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.resume(); // stopped, it would act on no signal but a fatal one
    for (const done of this.waiting.values()) done(null);
    this.waiting.clear();
    const worker = this.worker;
    if (!worker || worker.exitCode !== null || worker.signalCode !== null) return;
    worker.ref(); // held until it has exited, so close() resolves
    await new Promise<void>((resolve) => {
      worker.once("exit", () => resolve());
      worker.kill();
    });
  }
}
