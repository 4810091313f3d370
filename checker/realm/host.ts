/**
 * The trusted side of the boundary: starts the learner's realm (a worker thread holding only
 * the learner's bundled module, the SDK and Node), and hands the hidden test proxies of its
 * exports. Nothing of this realm (vitest, `expect`, the pool's channel) exists over there.
 */
import { getHeapStatistics } from "node:v8";
import { MessageChannel, Worker } from "node:worker_threads";
import Anthropic from "#anthropic-sdk";
import { type Locals, Membrane, RealmStopped } from "./membrane.js";
import { REALM_MESSAGES } from "./messages.js";
import type { LearnerBundle } from "./bundle.js";
import { stackMapper } from "./stack-map.js";

const ENTRY = new URL("./entry.js", import.meta.url);

/** How long one synchronous call into learner code may keep the test waiting. */
export const CALL_LIMIT_ENV = "LAB_CALL_LIMIT_MS";
const DEFAULT_CALL_LIMIT_MS = 2_000;

/** The realm's side of the boundary must not import bundle.ts: it runs where the lab's files may not be read. */
export type RealmBundle = Pick<LearnerBundle, "code" | "map" | "sdkUrl" | "root">;

export interface Realm {
  exports: Record<string, unknown>;
  /** Resolves once everything the test's side set off in the realm so far has run (see Membrane.settled). */
  settled(): Promise<void>;
  /** Ends the realm and everything it started; nothing of it runs after this resolves. */
  close(): Promise<void>;
}

/** The realms open in this process: a test's clock waits for all of them (see realmsSettled). */
const open = new Set<Realm>();

/** Resolves once every open realm has run what it was set off to do (see Membrane.settled). */
export async function realmsSettled(): Promise<void> {
  await Promise.all([...open].map((realm) => realm.settled()));
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
 * drives the learner's too.
 */
const clock = { now: () => performance.now(), dateNow: () => Date.now() };

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

/** The learner's heap may grow as far as this process's own: the process's limits are the ones a grader set. */
const heapLimitMb = () => Math.floor(getHeapStatistics().heap_size_limit / 2 ** 20);

export async function openRealm(bundle: RealmBundle): Promise<Realm> {
  const limitMs = Number(process.env[CALL_LIMIT_ENV]) || DEFAULT_CALL_LIMIT_MS;
  const { port1, port2 } = new MessageChannel();
  const bells = new Int32Array(new SharedArrayBuffer(8));
  let ended = false;
  let worker: Worker | null = null;
  const end = (sentence: string) => {
    if (ended) return;
    ended = true;
    membrane.stop(new RealmStopped(sentence));
    void worker?.terminate();
  };
  const locals: Locals = { sdk: Anthropic as unknown as Locals["sdk"], serveFetch, mapStack: stackMapper(bundle.map) };
  const membrane = new Membrane(port1, bells, 0, locals, limitMs, (why) => end(REALM_MESSAGES.stuck(why)), true);
  worker = new Worker(ENTRY, {
    workerData: { port: port2, bells, code: bundle.code, sdkUrl: bundle.sdkUrl, root: bundle.root, clock: membrane.encode(clock) },
    execArgv: realmFlags(),
    transferList: [port2],
    resourceLimits: { maxOldGenerationSizeMb: heapLimitMb() },
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  membrane.onExit = (exitCode) => end(REALM_MESSAGES.exited(exitCode));
  worker.on("exit", (exitCode) => end(REALM_MESSAGES.exited(exitCode)));
  worker.on("error", (error) => end(REALM_MESSAGES.crashed(error)));
  const exports = await new Promise<Record<string, unknown>>((resolve, reject) => {
    worker.once("message", (ready: { ok: boolean; value: unknown }) => {
      const value = membrane.decode(ready.value);
      if (ready.ok) resolve(value as Record<string, unknown>);
      else reject(value);
    });
    // The first word on why it ended wins: a realm that said it was exiting is then terminated (exit code 1).
    worker.once("exit", (exitCode) => reject(membrane.stoppedBy ?? new RealmStopped(REALM_MESSAGES.exited(exitCode))));
    worker.once("error", (error) => reject(membrane.stoppedBy ?? new RealmStopped(REALM_MESSAGES.crashed(error))));
  });
  const realm: Realm = {
    exports,
    settled: () => membrane.settled(),
    async close() {
      open.delete(realm);
      ended = true;
      membrane.stop(new RealmStopped(REALM_MESSAGES.closed), false);
      port1.close();
      await worker.terminate();
    },
  };
  open.add(realm);
  return realm;
}
