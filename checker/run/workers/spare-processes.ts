/**
 * The worker processes behind the lab's vitest pool (lab-pool.ts): a spare forked ahead of
 * time with the SDK and the tokenizer loaded, so a rerun after a save does not pay Node's
 * start-up, and processes kept for their owner's next file (see SpareProcesses.serve).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { hasExited, killTree } from "../stopping/kill-group.js";
import { overMemoryLine, OutsideWatcher } from "../stopping/outside-watcher-link.js";
import { inPidNamespace } from "../walls/pid-namespace.js";
import { WORKER_ENTRY, type WorkerOptions } from "../vitest-internals.js";
import { openChannel } from "./channel.js";
import { KeptProcesses } from "./kept-processes.js";
import { BUNDLED_SDK_CONDITION } from "./sdk-bundle.js";
import { ONE_FILE_ENV, WARM_UP_ENV } from "./worker-env.js";

export const POOL_MESSAGES = {
  aborted: "The runner was stopped, so no new worker is started.",
} as const;

export interface SpawnSpec {
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

function spawnWorker(spec: SpawnSpec, preload: string, rehearse: boolean, oneFile: boolean): { child: ChildProcess; namespaced: boolean } {
  const nodeArgs = [
    ...spec.execArgv,
    `--min-semi-space-size=${YOUNG_GENERATION_MB}`,
    `--conditions=${BUNDLED_SDK_CONDITION}`,
    // For sweepYoungGarbage (young-garbage.ts) once a warm-up is over.
    "--expose-gc",
    `--import=${preload}`,
    spec.entrypoint,
  ];
  const namespace = inPidNamespace();
  const [command, ...args] = namespace ? [namespace.command, ...namespace.args, ...nodeArgs] : [process.execPath, ...nodeArgs];
  const child = spawn(command!, args, {
    env: { ...spec.env, [WARM_UP_ENV]: rehearse ? "1" : "", [ONE_FILE_ENV]: oneFile ? "1" : "" } as NodeJS.ProcessEnv,
    // stdin, stdout, stderr, and the lab's channel (channel.ts), not Node's IPC.
    stdio: ["pipe", "pipe", "pipe", "pipe"],
    // Its own process group, so a kill also reaches whatever learner code spawned.
    detached: true,
  });
  openChannel(child);
  return { child, namespaced: namespace !== null };
}

/** A spec as a key: the same command line and the same environment, in whatever order its variables came. */
const specKey = (spec: SpawnSpec) => JSON.stringify({ ...spec, env: Object.fromEntries(Object.entries(spec.env).sort(([a], [b]) => (a < b ? -1 : 1))) });

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
  /** The worker forked before vitest was loaded (forkAhead) and its spec's key, until the first run takes a process. */
  private ahead: { key: string; child: ChildProcess } | null = null;
  /** Whether the first run took the worker forked ahead; null when none was forked. */
  aheadTaken: boolean | null = null;

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
  specFor(options: WorkerOptions): SpawnSpec {
    const entrypoint = resolve(options.distPath, WORKER_ENTRY);
    if (!this.env) return { entrypoint, execArgv: options.execArgv, env: options.env };
    const vitestOwn = Object.fromEntries(Object.entries(options.env).filter(([k]) => /^(VITEST|TEST$|NODE_ENV$|FORCE_TTY$)/.test(k)));
    return { entrypoint, execArgv: options.execArgv, env: { ...this.env, ...vitestOwn } };
  }

  /**
   * Forks a worker now, for the options vitest is expected to give (see guessedWorkerOptions),
   * before vitest itself is loaded: ~200 ms of import in this process and ~300 ms of start-up
   * in the worker's then overlap. It does not rehearse; the first run is due at once. The first
   * run takes it only if vitest asks for exactly that spec; otherwise it is killed then.
   */
  forkAhead(options: WorkerOptions): void {
    const spec = this.specFor(options);
    this.refill(spec, false);
    const key = specKey(spec);
    const child = this.spares.get(key);
    this.ahead = child ? { key, child } : null;
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
    const key = specKey(spec);
    if (this.ahead) this.settleAhead(key);
    const kept = this.owner === null ? undefined : this.kept.take(key, this.owner);
    if (kept) return { child: kept, reused: true };
    const spare = this.spares.get(key);
    this.spares.delete(key);
    if (spare && !hasExited(spare)) {
      spare.stdin?.write("go\n"); // ends its warm-up rehearsal (see warm-up.ts)
      return { child: spare, reused: false };
    }
    return { child: this.fork(spec, false), reused: false };
  }

  /** The first run's spec is known: the worker forked ahead is its spare, or is killed if it was forked for another. */
  private settleAhead(key: string): void {
    const ahead = this.ahead!;
    this.ahead = null;
    this.aheadTaken = ahead.key === key && this.spares.get(key) === ahead.child;
    if (this.aheadTaken) return;
    if (this.spares.get(ahead.key) === ahead.child) this.spares.delete(ahead.key);
    killTree(ahead.child);
  }

  /** Whether a process done with a file is kept for the owner's next one (see serve). */
  keeps(): boolean {
    return this.owner !== null && !this.closed && !this.aborted;
  }

  /** Keeps `child`, done with a file and unharmed, for the owner's next run; false when there is no owner to keep it for. */
  keep(spec: SpawnSpec, child: ChildProcess, generation: number): boolean {
    if (this.owner === null || generation !== this.generation || this.closed || this.aborted || hasExited(child)) return false;
    this.kept.add(specKey(spec), this.owner, child);
    return true;
  }

  /** Whether `child` runs in a PID namespace of its own. */
  namespaced(child: ChildProcess): boolean {
    return this.inNamespace.has(child);
  }

  private fork(spec: SpawnSpec, rehearse: boolean): ChildProcess {
    // A process forked with no owner to keep it for runs one file (see keep).
    const { child, namespaced } = spawnWorker(spec, this.preload, rehearse && this.warm, this.owner === null);
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

  /** Forks a spare for `spec` unless one waits already; it rehearses if the spares are warm (see warm-up.ts) and `rehearse` allows. */
  refill(spec: SpawnSpec, rehearse = true): void {
    const key = specKey(spec);
    if (this.closed || this.spares.has(key)) return;
    const child = this.fork(spec, rehearse);
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
