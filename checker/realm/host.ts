/**
 * The trusted side of the boundary: starts the learner's realm (a worker thread holding only
 * the learner's bundled module, the SDK and Node), and hands the hidden test proxies of its
 * exports. Nothing of this realm (vitest, `expect`, the pool's channel) exists over there.
 *
 * A thread, its Node and the SDK take ~100 ms to start, and its SDK runs cold: a worker
 * process keeps one realm started ahead (prepareSpareRealm), rehearsing while the learner
 * types, and gives it the learner's code when a test file asks. No realm serves two files.
 */
import { getHeapStatistics } from "node:v8";
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import Anthropic from "#anthropic-sdk";
import { CALL_LIMIT_MS } from "../model/limits.js";
import { type Locals, Membrane, REAL_CLOCK, RealmStopped } from "./membrane.js";
import { REALM_MESSAGES } from "./messages.js";
import type { LearnerBundle } from "./bundle.js";
import { TextsByTest } from "./capped-text.js";
import { testContext } from "./test-context.js";
import { stackMapper } from "./stack-map.js";
import type { RehearsalUrls } from "../run/workers/rehearsal.js";
import { PracticeHost } from "./practice.js";

/** The realm's entry, compiled: beside this file in dist/, or dist/'s copy when this runs from the sources (tests). */
const ENTRY = import.meta.url.endsWith(".ts") ? new URL("../../dist/checker/realm/entry.js", import.meta.url) : new URL("./entry.js", import.meta.url);

/**
 * How long one synchronous call into learner code may keep the test waiting (see
 * model/limits.ts); LAB_CALL_LIMIT_MS in the worker's environment sets another.
 */
export const CALL_LIMIT_ENV = "LAB_CALL_LIMIT_MS";
const DEFAULT_CALL_LIMIT_MS = CALL_LIMIT_MS;

/** The realm's side of the boundary must not import bundle.ts: it runs where the lab's files may not be read. */
export type RealmBundle = Pick<LearnerBundle, "code" | "map" | "sdkUrl" | "root">;

export interface Realm {
  exports: Record<string, unknown>;
  /** Keeps what the learner's code prints as test `test`'s work (see test-context.ts) until takeOutput(test). */
  startTest(test: number): void;
  /**
   * What the learner's code printed as test `test`'s work (stdout and stderr, as written), after
   * anything printed for no running test, once everything set off so far has run; capped at
   * OUTPUT_CAP characters and marked where cut.
   */
  takeOutput(test?: number): Promise<string>;
  /** Resolves once everything the test's side set off in the realm so far has run (see Membrane.settled). */
  settled(): Promise<void>;
  /**
   * Ends the realm and everything it started: nothing of it crosses or runs after this resolves.
   * Its thread's teardown finishes later, before the next realm of this process loads any code.
   */
  close(): Promise<void>;
}

/** A local fetch, served as data the learner's realm rebuilds a Response from (see entry.ts). */
const serveFetch: Locals["serveFetch"] = (local) => async (url, init) => {
  const response = await local(url as string, init as RequestInit);
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
    body: new Uint8Array(await response.arrayBuffer()),
  };
};

/**
 * The learner's realm keeps no clock of its own: its `performance.now()` and `Date.now()` read
 * this side's, whatever they are at that moment, so a test that drives the clock by hand
 * drives the learner's too. Asking costs a round trip, and the SDK asks often; so while this
 * side's clock is the real one (checked before every message to the realm, which can only act
 * on what a message set off) the realm reads the time itself, on this side's time origin.
 */
const clock = { now: () => performance.now(), dateNow: () => Date.now(), timeOrigin: performance.timeOrigin };
const realNow = performance.now;
const realDateNow = Date.now;

/**
 * The realm's own Node flags. A thread given flags of its own is bound by no permission model
 * but the one they name, so the walls the process runs behind are named again here, every one
 * but the right to start threads: learner code must not start a thread of its own (one given
 * no flags would be bound by nothing). The process's other flags (its --import preload, the
 * test side's) are not the realm's.
 */
export function realmFlags(processFlags: readonly string[] = process.execArgv): string[] {
  const walls = processFlags.filter((flag) => /^--(experimental-)?permission$|^--allow-(fs-read|fs-write|child-process|addons|wasi)(=|$)/.test(flag));
  return walls.length === 0 ? [] : [...walls, "--disable-warning=ExperimentalWarning"];
}

export { OUTPUT_CAP, outputCut } from "./capped-text.js";

/** The learner's heap may grow as far as this process's own: the process's limits are the ones a grader set. */
const heapLimitMb = () => Math.floor(getHeapStatistics().heap_size_limit / 2 ** 20);

/** A realm's thread, started and waiting for the learner's code (see entry.ts). */
class RealmThread {
  readonly membrane: Membrane;
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private ended = false;
  private mapStack: (stack: string) => string = (stack) => stack;
  private readonly printed = new TextsByTest();
  /** The membrane's practice while the realm waits, when it rehearses (see practice.ts). */
  private readonly practice: PracticeHost | null;

  constructor(
    readonly sdkUrl: string,
    rehearsal: RehearsalUrls | null,
  ) {
    const limitMs = Number(process.env[CALL_LIMIT_ENV]) || DEFAULT_CALL_LIMIT_MS;
    const { port1, port2 } = new MessageChannel();
    const bells = new Int32Array(new SharedArrayBuffer(12));
    const locals: Locals = {
      sdk: Anthropic as unknown as Locals["sdk"],
      serveFetch,
      mapStack: (stack) => this.mapStack(stack),
      beforePost: () => Atomics.store(bells, REAL_CLOCK, performance.now === realNow && Date.now === realDateNow ? 1 : 0),
      tests: testContext,
    };
    this.port = port1;
    this.membrane = new Membrane(port1, bells, 0, locals, limitMs, (why) => this.end(REALM_MESSAGES.stuck(why)), true);
    this.membrane.onExit = (exitCode) => this.end(REALM_MESSAGES.exited(exitCode));
    this.membrane.onOutput = (text, test) => this.printed.add(text, test);
    this.practice = rehearsal ? new PracticeHost({ ...locals, mapStack: undefined, beforePost: undefined }, rehearsal.weather, limitMs) : null;
    const practice = this.practice?.realmSide ?? null;
    this.worker = new Worker(ENTRY, {
      workerData: { port: port2, bells, sdkUrl, clock: this.membrane.encode(clock), rehearsal, practice },
      execArgv: realmFlags(),
      transferList: practice ? [port2, practice.port] : [port2],
      resourceLimits: { maxOldGenerationSizeMb: heapLimitMb() },
      stdout: true,
      stderr: true,
    });
    this.worker.stdout.resume();
    this.worker.stderr.resume();
    this.worker.on("exit", (exitCode) => this.end(REALM_MESSAGES.exited(exitCode)));
    this.worker.on("error", (error) => this.end(REALM_MESSAGES.crashed(error)));
  }

  get alive(): boolean {
    return !this.ended;
  }

  private end(sentence: string): void {
    if (this.ended) return;
    this.ended = true;
    this.membrane.stop(new RealmStopped(sentence));
    void this.worker.terminate();
  }

  /** Loads the learner's bundle; resolves to its exports, as handles, or rejects with why it could not. */
  load(bundle: RealmBundle): Promise<Record<string, unknown>> {
    this.practice?.stop();
    this.mapStack = stackMapper(bundle.map);
    return new Promise((resolve, reject) => {
      this.worker.once("message", (ready: { ok: boolean; value: unknown }) => {
        const value = this.membrane.decode(ready.value);
        if (ready.ok) resolve(value as Record<string, unknown>);
        else reject(value);
      });
      // The first word on why it ended wins: a realm that said it was exiting is then terminated (exit code 1).
      this.worker.once("exit", (exitCode) => reject(this.membrane.stoppedBy ?? new RealmStopped(REALM_MESSAGES.exited(exitCode))));
      this.worker.once("error", (error) => reject(this.membrane.stoppedBy ?? new RealmStopped(REALM_MESSAGES.crashed(error))));
      this.worker.postMessage({ code: bundle.code, root: bundle.root });
    });
  }

  /** From now until it is taken, what the learner's code prints as test `test`'s work is kept for it. */
  startTest(test: number): void {
    this.printed.start(test);
  }

  /** What was printed as test `test`'s work (after what was printed for no running test), and forgets it. */
  takePrinted(test: number | undefined): string {
    return this.printed.take(test);
  }

  /**
   * Ends the thread: from here on nothing crosses and no more of its code runs. Tearing its
   * isolate down takes a while longer; a realm opened after this waits for that (see ending).
   */
  close(): void {
    this.ended = true;
    this.membrane.stop(new RealmStopped(REALM_MESSAGES.closed), false);
    this.port.close();
    const gone = this.worker.terminate().then(() => undefined);
    ending.add(gone);
    void gone.finally(() => ending.delete(gone));
  }
}

/** Closed realms whose threads are still being torn down: no realm loads code until they are gone. */
const ending = new Set<Promise<void>>();

/** The realms open in this process: a test's clock waits for all of them (see realmsSettled). */
const open = new Set<Realm>();
/** The realm started ahead, if this process keeps one (see prepareSpareRealm). */
let spare: RealmThread | null = null;
/** Whether another realm is started ahead each time one closes: only in a process that may run another file. */
let keepsSpare = false;

/** Resolves once every open realm has run what it was set off to do (see Membrane.settled). */
export async function realmsSettled(): Promise<void> {
  await Promise.all([...open].map((realm) => realm.settled()));
}

/**
 * Starts a realm ahead, for the next test file of this process (a worker's preload calls this),
 * and, when `again`, another each time one is done. `rehearsal`: a provider to rehearse against
 * until the learner's code arrives (see rehearsal.ts), when the process has time to spare.
 */
export function prepareSpareRealm(rehearsal: RehearsalUrls | null = null, again = true): void {
  keepsSpare = again;
  if (spare?.alive) return;
  // In a worker process, under the bundled-SDK condition: the very SDK a learner's bundle imports.
  spare = new RealmThread(import.meta.resolve("#anthropic-sdk"), rehearsal);
}

export async function openRealm(bundle: RealmBundle): Promise<Realm> {
  await Promise.all([...ending]);
  const thread = spare?.alive && spare.sdkUrl === bundle.sdkUrl ? spare : new RealmThread(bundle.sdkUrl, null);
  if (thread === spare) spare = null;
  const exports = await thread.load(bundle).catch((error: unknown) => {
    thread.close();
    if (keepsSpare) prepareSpareRealm();
    throw error;
  });
  const realm: Realm = {
    exports,
    settled: () => thread.membrane.settled(),
    startTest: (test) => thread.startTest(test),
    async takeOutput(test) {
      await thread.membrane.settled();
      return thread.takePrinted(test);
    },
    async close() {
      open.delete(realm);
      thread.close();
      if (keepsSpare) prepareSpareRealm();
    },
  };
  open.add(realm);
  return realm;
}
