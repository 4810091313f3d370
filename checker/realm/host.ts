/**
 * The trusted side of the boundary: starts the learner's realm (a worker thread holding only
 * the learner's bundled module, the SDK and Node), and hands the hidden test proxies of its
 * exports. Nothing of this realm (vitest, `expect`, the pool's IPC) exists over there.
 */
import { MessageChannel, Worker } from "node:worker_threads";
import Anthropic from "#anthropic-sdk";
import { type Locals, Membrane, RealmStopped } from "./membrane.js";
import { REALM_MESSAGES } from "./messages.js";
import { learnerSdkUrl } from "./bundle.js";

const ENTRY = new URL("./entry.js", import.meta.url);

/** How long one synchronous call into learner code may run: the runner's per-test limit. */
export const CALL_LIMIT_ENV = "LAB_CALL_LIMIT_MS";
const DEFAULT_CALL_LIMIT_MS = 2_000;

export interface Realm {
  exports: Record<string, unknown>;
  /** Ends the realm and everything it started; nothing of it runs after this resolves. */
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

export async function openRealm(code: string): Promise<Realm> {
  const limitMs = Number(process.env[CALL_LIMIT_ENV]) || DEFAULT_CALL_LIMIT_MS;
  const { port1, port2 } = new MessageChannel();
  const bells = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(ENTRY, {
    workerData: { port: port2, bells, code, sdkUrl: learnerSdkUrl() },
    transferList: [port2],
    resourceLimits: { maxOldGenerationSizeMb: 512 },
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  let ended = false;
  const end = (sentence: string) => {
    if (ended) return;
    ended = true;
    membrane.stop(new RealmStopped(sentence));
    void worker.terminate();
  };
  const membrane = new Membrane(port1, bells, 0, { sdk: Anthropic as unknown as Locals["sdk"], serveFetch }, limitMs, (why) => end(REALM_MESSAGES.stuck(why)));
  membrane.onExit = (exitCode) => end(REALM_MESSAGES.exited(exitCode));
  worker.on("exit", (exitCode) => end(REALM_MESSAGES.exited(exitCode)));
  worker.on("error", (error) => end(REALM_MESSAGES.crashed(error)));
  const exports = await new Promise<Record<string, unknown>>((resolve, reject) => {
    worker.once("message", (ready: { ok: boolean; value: unknown }) => {
      const value = membrane.decode(ready.value);
      if (ready.ok) resolve(value as Record<string, unknown>);
      else reject(value);
    });
    worker.once("exit", (exitCode) => reject(new RealmStopped(REALM_MESSAGES.exited(exitCode))));
    worker.once("error", (error) => reject(new RealmStopped(REALM_MESSAGES.crashed(error))));
  });
  return {
    exports,
    async close() {
      ended = true;
      membrane.stop(new RealmStopped(REALM_MESSAGES.closed));
      port1.close();
      await worker.terminate();
    },
  };
}
