/**
 * The one channel between the trusted realm (the hidden test) and the learner's realm (a
 * worker thread). Both sides run this same code. Plain data crosses by structured clone;
 * everything with behaviour (functions, class instances, objects holding functions) crosses
 * as a handle the other side reaches through a Proxy (remote-proxy.ts). Errors, promises,
 * AbortSignals and SDK clients have shapes of their own (codec.ts).
 *
 * Every call is synchronous for the caller: it posts the request and waits on its doorbell
 * (Atomics.wait, bell-watch.ts) for the answer, serving the other side's requests meanwhile
 * (receiveMessageOnPort), so a sync export (`guard.check`) stays sync and a learner's sync
 * call into a test's sync callback (`parts.budget(5).charge`) is answered while the test is
 * itself waiting. An async function answers at once with a promise id, settled later. Some
 * calls are not waited for at all, as their caller gets a promise anyway: the learner's realm
 * calling the test's async functions, and the test calling the async methods of the learner's
 * objects (a cache's `put`), which a watch stops when the realm stops answering (owed-watch.ts).
 * birpc and Comlink were the candidates; both are async only, and 31 exports and callbacks
 * across the twelve exercises are synchronous.
 */
import { type MessagePort, receiveMessageOnPort } from "node:worker_threads";
import { BellWatch, ring } from "./bell-watch.js";
import { Codec, type Locals, type Pending } from "./codec.js";
import { type Call, MARK, MEMBRANE_MESSAGES, type Message, servedKey } from "./crossing.js";
import { OwedWatch } from "./owed-watch.js";
import type { CallParts, HandleLink } from "./remote-proxy.js";

export { MARK, MEMBRANE_MESSAGES };
export type { Locals };
/**
 * A realm's bells: slot 0 is the test side's doorbell, 1 the learner realm's, and REAL_CLOCK
 * says whether the test side's clock is the real one (1) or driven by a test (0); see host.ts.
 */
export const REAL_CLOCK = 2;

const stuckFor = (limitMs: number) => `it kept running for more than ${(limitMs / 1000).toFixed(1)} s without returning (an endless loop?)`;

/** Thrown on the trusted side when the learner's realm is gone or went quiet past the limit. */
export class RealmStopped extends Error {
  override name = "RealmStopped";
}

export class Membrane {
  /** Ids of this side's calls and drains (its values' ids are the handle table's). */
  private nextId = 1;
  /** This side's calls the other side answers later (see sendLater), by this side's own ids: the other side's promises are by its ids. */
  private readonly calledLater = new Map<number, Pending>();
  private readonly replies = new Map<number, Message & { k: "reply" }>();
  private readonly draining = new Map<number, () => void>();
  private stopped: RealmStopped | null = null;
  private readonly watch = new BellWatch();
  /** On the trusted side, the watch over calls it did not wait for (see owed-watch.ts). */
  private readonly owedWatch: OwedWatch | null;
  /** What this side's proxies of the other side's values call through (see remote-proxy.ts). */
  private readonly link: HandleLink = {
    call: (op, target, parts = {}) => this.call({ op, target, ...parts }),
    callLater: (op, target, parts) => this.sendLater({ op, target, ...parts }),
    encode: (value) => this.encode(value),
    isInstance: (value, classId) => this.isInstance(value, classId),
  };
  private readonly codec: Codec;

  constructor(
    private readonly port: MessagePort,
    private readonly bells: Int32Array,
    /** 0 on the trusted side, 1 in the learner's realm: the bell this side waits on. */
    private readonly side: 0 | 1,
    private readonly locals: Locals,
    /** How long one call may keep this side waiting; Infinity in the learner's realm. */
    private readonly limitMs: number,
    private readonly onStuck: (why: string) => void = () => undefined,
    /** The trusted side: the other side reaches its handles only through served keys (see servedKey). */
    private readonly guarded = false,
  ) {
    this.codec = new Codec({ postUnlessStopped: (make) => this.postUnlessStopped(make), testNow: () => this.testNow(), link: this.link }, locals, guarded);
    port.on("message", (message: Message) => this.handle(message));
    this.owedWatch =
      guarded && Number.isFinite(limitMs)
        ? new OwedWatch(
            {
              drainPort: () => {
                for (let next = receiveMessageOnPort(port); next && !this.stopped; next = receiveMessageOnPort(port)) this.handle(next.message as Message);
              },
              owes: () => !this.stopped && this.calledLater.size > 0,
              askDrain: (drained) => this.askDrain(drained),
              stuck: () => this.onStuck(stuckFor(limitMs)),
            },
            limitMs,
          )
        : null;
  }

  /**
   * Ends every wait and call from now on with `error`. `rejectPending`: the promises the other
   * side still owes are rejected with it too; when the realm is closed on purpose (the test
   * file is done) they stay pending, as any promise that never settles would.
   */
  stop(error: RealmStopped, rejectPending = true): void {
    if (this.stopped) return;
    this.stopped = error;
    if (rejectPending) for (const pending of [...this.codec.promises.values(), ...this.calledLater.values()]) pending.reject(error);
    this.codec.promises.clear();
    this.calledLater.clear();
    for (const done of this.draining.values()) done();
    this.draining.clear();
    this.owedWatch?.stop();
  }

  /** Why this side stopped, if it did. */
  get stoppedBy(): RealmStopped | null {
    return this.stopped;
  }

  post(message: Message): void {
    this.locals.beforePost?.();
    this.port.postMessage(message);
    ring(this.bells, 1 - this.side);
  }

  /** Posts the message `make` makes unless this side has stopped: an outcome that comes after the end is not even encoded. */
  private postUnlessStopped(make: () => Message): void {
    if (!this.stopped) this.post(make());
  }

  encode(value: unknown): unknown {
    return this.codec.encode(value);
  }

  decode(value: unknown): unknown {
    return this.codec.decode(value);
  }

  // ---- calls ----------------------------------------------------------------------------

  private isInstance(value: unknown, classId: number): boolean {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) return false;
    const id = this.codec.handles.remoteId(value as object);
    if (id === undefined) return false;
    return Boolean(this.call({ op: "instanceof", target: classId, args: [{ [MARK]: "yours", id }] }));
  }

  /** Sends one request and waits for its answer, serving the other side meanwhile. */
  private call(request: CallRequest): unknown {
    if (this.stopped) throw this.stopped;
    const id = this.nextId++;
    this.post({ k: "call", id, ...request, test: this.testNow() });
    // Only time spent waiting counts: serving the other side's nested calls is this side's own work.
    let waited = 0;
    for (;;) {
      const seen = Atomics.load(this.bells, this.side);
      const reply = this.replies.get(id);
      if (reply) {
        this.replies.delete(id);
        const value = this.decode(reply.value);
        if (!reply.ok) throw value;
        return value;
      }
      if (this.stopped) throw this.stopped;
      const left = this.limitMs - waited;
      if (left <= 0) {
        this.onStuck(stuckFor(this.limitMs));
        throw this.stopped ?? new RealmStopped("The learner's realm stopped answering.");
      }
      const next = receiveMessageOnPort(this.port);
      if (next) {
        this.handle(next.message as Message);
        continue;
      }
      waited += this.watch.wait(this.bells, this.side, seen, left);
    }
  }

  /**
   * Calls the other side's function `fn` (a handle this side holds) without waiting for it: the
   * promise settles when it does. For a call known to be asynchronous (a fetch), where waiting
   * for the other side to start it only holds this side up.
   */
  callLater(fn: unknown, args: unknown[]): Promise<unknown> {
    const target = this.codec.handles.remoteId(fn as object);
    if (target === undefined) return Promise.reject(new TypeError("Not a function of the other side."));
    return this.sendLater({ op: "apply", target, args: args.map((a) => this.encode(a)) });
  }

  private sendLater(request: CallRequest): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    const settled = new Promise((resolve, reject) => this.calledLater.set(id, { resolve, reject }));
    this.post({ k: "call", id, ...request, later: true, test: this.testNow() });
    this.owedWatch?.start();
    return settled;
  }

  // ---- serving the other side -------------------------------------------------------------

  private handle(message: Message): void {
    if (this.stopped) return;
    switch (message.k) {
      case "reply":
        this.replies.set(message.id, message);
        return;
      case "settle": {
        const owed = message.call ? this.calledLater : this.codec.promises;
        const pending = owed.get(message.promise);
        owed.delete(message.promise);
        if (!pending) return;
        const value = this.decode(message.value);
        if (message.ok) pending.resolve(value);
        else pending.reject(value);
        return;
      }
      case "abort": {
        const controller = this.codec.controllers.get(message.signal);
        if (controller) this.asTest(message.test, () => controller.abort(this.decode(message.reason)));
        return;
      }
      case "exit":
        this.onExit?.(message.code);
        return;
      case "drain":
        // After everything already queued on this side has run (see settled).
        setImmediate(() => this.post({ k: "drained", id: message.id }));
        return;
      case "drained":
        this.draining.get(message.id)?.();
        this.draining.delete(message.id);
        return;
      case "output":
        this.onOutput?.(String(message.text), message.test);
        return;
      case "call":
        this.asTest(message.test, () => this.serve(message));
    }
  }

  /** The test this side is working for now, as a message carries it. */
  testNow(): number | undefined {
    return this.locals.tests?.current();
  }

  private asTest(test: number | undefined, fn: () => void): void {
    if (this.locals.tests) this.locals.tests.run(test, fn);
    else fn();
  }

  /**
   * Resolves once the other side has run everything this side's messages so far set off, and
   * everything it set off here in turn has been handled: a clock driven by hand (a test's
   * virtual clock) waits for this before it moves, as it waits for its own side's pending work.
   */
  settled(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.askDrain(resolve));
  }

  /** Asks the other side to drain; `drained` runs, on this side, when it has (see settled). */
  private askDrain(drained: () => void): void {
    const id = this.nextId++;
    this.draining.set(id, drained);
    this.post({ k: "drain", id });
  }

  /** Called with what the other side printed (the learner's realm: its stdout and stderr, as written), and for which test. */
  onOutput: ((text: string, test: number | undefined) => void) | null = null;

  /** Called when the other side says it is exiting (the learner's realm, on process.exit). */
  onExit: ((code: number) => void) | null = null;

  private serve(message: Call): void {
    if (message.later) return this.serveLater(message);
    let ok = true;
    let value: unknown;
    try {
      value = this.encode(this.perform(message));
    } catch (error) {
      ok = false;
      value = this.encode(error);
    }
    this.post({ k: "reply", id: message.id, ok, value });
  }

  /** A call whose caller did not wait (see sendLater): its outcome settles the caller's promise `id`. */
  private serveLater(message: Call): void {
    const settle = (ok: boolean, value: unknown) =>
      this.postUnlessStopped(() => ({ k: "settle", promise: message.id, ok, value: this.encode(value), call: true }));
    try {
      Promise.resolve(this.perform(message)).then(
        (value) => settle(true, value),
        (error) => settle(false, error),
      );
    } catch (error) {
      settle(false, error);
    }
  }

  private perform(message: Call): unknown {
    const target = this.codec.handles.handedOut(message.target) as Record<PropertyKey, unknown> & ((...a: unknown[]) => unknown);
    if (target === undefined) throw new Error(MEMBRANE_MESSAGES.noSuchObject);
    const key = message.key === undefined ? "" : typeof message.key === "string" ? message.key : Symbol[message.key.sym];
    if (this.guarded && message.key !== undefined && !servedKey(target, key)) {
      if (message.op === "has") return false;
      if (message.op === "get" || message.op === "describe") return undefined;
      throw new TypeError(MEMBRANE_MESSAGES.unserved(String(key)));
    }
    const args = (message.args ?? []).map((a) => this.decode(a));
    switch (message.op) {
      case "apply":
        return Reflect.apply(target, this.decode(message.self), args);
      case "construct":
        return Reflect.construct(target as unknown as new (...a: unknown[]) => object, args);
      case "get":
        return Reflect.get(target, key);
      case "set":
        return Reflect.set(target, key, args[0]);
      case "has":
        return Reflect.has(target, key);
      case "delete":
        return Reflect.deleteProperty(target, key);
      case "keys":
        return Reflect.ownKeys(target).filter((k): k is string => typeof k === "string" && (!this.guarded || servedKey(target, k)));
      case "describe": {
        const found = Reflect.getOwnPropertyDescriptor(target, key);
        if (!found) return undefined;
        // A tuple, which crosses item by item: an object holding a function would cross as a handle.
        return ["value" in found ? found.value : Reflect.get(target, key), found.enumerable ?? false, found.writable ?? false];
      }
      case "instanceof":
        return typeof target === "function" && args[0] instanceof (target as unknown as new () => object);
      case "invoke":
        return Reflect.apply(Reflect.get(target, key) as (...a: unknown[]) => unknown, target, args);
    }
  }
}

/** A call as its caller makes it: what to do, to which of the other side's values. */
type CallRequest = { op: Call["op"]; target: number } & CallParts;
