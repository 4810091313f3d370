/**
 * The one channel between the trusted realm (the hidden test) and the learner's realm (a
 * worker thread). Both sides run this same code. Plain data crosses by structured clone;
 * everything with behaviour (functions, class instances, objects holding functions) crosses
 * as a handle the other side reaches through a Proxy. Errors, promises, AbortSignals and SDK
 * clients have shapes of their own (see encode).
 *
 * Every call is synchronous for the caller: it posts the request and waits on its doorbell
 * (Atomics.wait) for the answer, serving the other side's requests meanwhile
 * (receiveMessageOnPort), so a sync export (`guard.check`) stays sync and a learner's sync
 * call into a test's sync callback (`parts.budget(5).charge`) is answered while the test is
 * itself waiting. An async function answers at once with a promise id, settled later. Some
 * calls are not waited for at all, as their caller gets a promise anyway: the learner's realm
 * calling the test's async functions, and the test calling the async methods of the learner's
 * objects (a cache's `put`), which a watch stops when the realm stops answering (watchLater).
 * birpc and Comlink were the candidates; both are async only, and 31 exports and callbacks
 * across the twelve exercises are synchronous.
 */
import { type MessagePort, receiveMessageOnPort } from "node:worker_threads";

export const MARK = "\u0000lab";
/**
 * A realm's bells: slot 0 is the test side's doorbell, 1 the learner realm's, and REAL_CLOCK
 * says whether the test side's clock is the real one (1) or driven by a test (0); see host.ts.
 */
export const REAL_CLOCK = 2;
/** This realm's own clock, taken before anything replaces the global one (the learner's realm does: entry.ts). */
const monotonic = performance.now.bind(performance);
/** The real timer, taken before a test can replace it with a fake one: the watch on the realm runs on real time. */
const realSetTimeout = setTimeout;
const realClearTimeout = clearTimeout;
/** How often a realm that owes answers is asked for a sign of life (see Membrane.watchLater). */
const WATCH_TICK_MS = 250;
/**
 * How long a waiting side watches its bell before it sleeps on it. Most answers come back
 * within tens of microseconds, and waking a thread that slept costs about as much again
 * (~20 µs here, per side): watching briefly halves a round trip, for at most this much CPU.
 */
const SPIN_MS = 0.05;

/** Whether the bell rings within SPIN_MS of `from`, watched without sleeping. */
function ringsSoon(bells: Int32Array, side: number, seen: number, from: number): boolean {
  for (let i = 1; ; i++) {
    if (Atomics.load(bells, side) !== seen) return true;
    if ((i & 63) === 0 && monotonic() - from > SPIN_MS) return false;
  }
}

/**
 * Watches only while watching pays: on a machine busy with other work the answer comes late,
 * and watching would take a core from whoever is to answer. After three watches in a row that
 * ended in sleep, it sleeps at once, and tries watching again every 32nd wait.
 */
class BellWatch {
  private misses = 0;
  private skipped = 0;

  ringsSoon(bells: Int32Array, side: number, seen: number, from: number): boolean {
    if (this.misses >= 3 && ++this.skipped % 32 !== 0) return false;
    const rang = ringsSoon(bells, side, seen, from);
    this.misses = rang ? 0 : this.misses + 1;
    return rang;
  }
}
const stuckFor = (limitMs: number) => `it kept running for more than ${(limitMs / 1000).toFixed(1)} s without returning (an endless loop?)`;
const WELL_KNOWN = ["asyncIterator", "hasInstance", "iterator", "toPrimitive", "toStringTag"] as const;

type Key = string | { sym: (typeof WELL_KNOWN)[number] };
type Op = "apply" | "construct" | "get" | "set" | "has" | "delete" | "keys" | "describe" | "instanceof" | "invoke";
type Message =
  | { k: "call"; id: number; op: Op; target: number; key?: Key; self?: unknown; args?: unknown[]; later?: boolean; test?: number }
  | { k: "reply"; id: number; ok: boolean; value: unknown }
  | { k: "settle"; promise: number; ok: boolean; value: unknown; call?: boolean }
  | { k: "abort"; signal: number; reason: unknown; test?: number }
  | { k: "exit"; code: number }
  | { k: "drain"; id: number }
  | { k: "drained"; id: number }
  | { k: "output"; text: string; test?: number };

/** What one side knows how to build from the other's descriptions (the SDK differs per realm). */
export interface Locals {
  /** The SDK's default export in this realm, for errors and clients. */
  sdk: { new (options: Record<string, unknown>): object } & Record<string, unknown>;
  /** Wraps a remote fetch (a client configured with one) into a fetch this realm's SDK can use. */
  wrapFetch?: (remote: (...args: unknown[]) => unknown) => typeof fetch;
  /** Serves a local client's fetch as plain data the other realm can rebuild a Response from. */
  serveFetch?: (local: typeof fetch) => (...args: unknown[]) => Promise<unknown>;
  /** Rewrites the other realm's stack traces into positions this side can read (the learner's files). */
  mapStack?: (stack: string) => string;
  /** Runs before every message this side posts (the trusted side: the clock's state, see host.ts). */
  beforePost?: () => void;
  /** Which test this side is working for (see TestContext); none: calls carry no test. */
  tests?: TestContext;
}

/**
 * The test a piece of work belongs to, on each side of the boundary: a call carries the test
 * its caller was working for, and runs as that test's work on the other side, so what it prints
 * there, at once or later, is that test's, even while other tests of the file run beside it.
 */
export interface TestContext {
  current(): number | undefined;
  /** Runs `fn` as the work of test `test`, or of no test. */
  run<T>(test: number | undefined, fn: () => T): T;
}

/** Thrown on the trusted side when the learner's realm is gone or went quiet past the limit. */
export class RealmStopped extends Error {
  override name = "RealmStopped";
}

export class Membrane {
  private nextId = 1;
  private readonly byId = new Map<number, unknown>();
  private readonly idOf = new Map<unknown, number>();
  private readonly proxies = new Map<number, object>();
  private readonly remoteOf = new WeakMap<object, number>();
  private readonly promises = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  /** This side's calls the other side answers later (see sendLater), by this side's own ids: the other side's promises are by its ids. */
  private readonly calledLater = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  private readonly controllers = new Map<number, AbortController>();
  private readonly replies = new Map<number, Message & { k: "reply" }>();
  /** The local values handed out as handles (functions, objects): the only targets a call may name. */
  private readonly served = new Set<number>();
  /** The shape of each object handed out, as first seen (see shapeOf). */
  private readonly shapes = new Map<number, { methods: string[]; later: string[] }>();
  private stopped: RealmStopped | null = null;
  private readonly watch = new BellWatch();

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
    port.on("message", (message: Message) => this.handle(message));
  }

  /**
   * Ends every wait and call from now on with `error`. `rejectPending`: the promises the other
   * side still owes are rejected with it too; when the realm is closed on purpose (the test
   * file is done) they stay pending, as any promise that never settles would.
   */
  stop(error: RealmStopped, rejectPending = true): void {
    if (this.stopped) return;
    this.stopped = error;
    if (rejectPending) for (const pending of [...this.promises.values(), ...this.calledLater.values()]) pending.reject(error);
    this.promises.clear();
    this.calledLater.clear();
    for (const done of this.draining.values()) done();
    this.draining.clear();
    if (this.watchTimer !== null) realClearTimeout(this.watchTimer);
    this.watchTimer = null;
  }

  /** Why this side stopped, if it did. */
  get stoppedBy(): RealmStopped | null {
    return this.stopped;
  }

  post(message: Message): void {
    this.locals.beforePost?.();
    this.port.postMessage(message);
    const other = 1 - this.side;
    Atomics.add(this.bells, other, 1);
    Atomics.notify(this.bells, other);
  }

  // ---- encoding -------------------------------------------------------------------------

  private localId(value: unknown): number {
    let id = this.idOf.get(value);
    if (id === undefined) {
      id = this.nextId++;
      this.idOf.set(value, id);
      this.byId.set(id, value);
    }
    return id;
  }

  encode(value: unknown, depth = 0): unknown {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) {
      return typeof value === "symbol" ? undefined : value;
    }
    const remote = this.remoteOf.get(value as object);
    if (remote !== undefined) return { [MARK]: "yours", id: remote };
    if (typeof value === "function") return { [MARK]: "fn", id: this.handOut(value), name: value.name, later: this.callsLater(value) };
    if (value instanceof Promise) return this.encodePromise(value);
    if (value instanceof Error) return this.encodeError(value);
    if (value instanceof AbortSignal) return this.encodeSignal(value);
    if (value instanceof this.locals.sdk) return this.encodeClient(value as Record<string, unknown>);
    if (value instanceof Headers) return { [MARK]: "headers", entries: [...value] };
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date || value instanceof RegExp) return value;
    if (Array.isArray(value)) return value.map((item) => this.encode(item, depth + 1));
    if (isPlainData(value, depth)) {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) copy[key] = this.encode(item, depth + 1);
      return copy;
    }
    if (this.guarded && isFrozenRecord(value)) return this.encodeRecord(value, depth);
    const id = this.handOut(value);
    let shape = this.shapes.get(id);
    if (!shape) this.shapes.set(id, (shape = this.shapeOf(value)));
    return { [MARK]: "obj", id, ...shape };
  }

  /**
   * An object's methods, and those of them the other side may call without waiting: the test's
   * async methods (see callsLater), and the learner's, whose first steps the test's side does
   * not wait for either: a realm that stops answering meanwhile is stopped by watchLater.
   */
  private shapeOf(value: object): { methods: string[]; later: string[] } {
    const methods = methodNames(value, this.guarded);
    const later = (method: unknown) => (this.guarded ? this.callsLater(method) : isAsyncFunction(method));
    return { methods, later: methods.filter((key) => later((value as Record<string, unknown>)[key])) };
  }

  /**
   * Whether the other side may call `value` without waiting for it: an async function of the
   * test's (ours, so its first steps never hang) returns a promise at once whatever it does,
   * so the learner's realm goes on and the promise settles when the test's side has run it.
   */
  private callsLater(value: unknown): boolean {
    return this.guarded && isAsyncFunction(value);
  }

  /**
   * A test's frozen object, functions among its fields: nothing about it can change, so it
   * crosses as a copy whose functions are handles, and crosses back as itself.
   */
  private encodeRecord(value: object, depth: number): unknown {
    const fields: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) fields[key] = this.encode(item, depth + 1);
    return { [MARK]: "rec", id: this.handOut(value), fields };
  }

  private handOut(value: object): number {
    const id = this.localId(value);
    this.served.add(id);
    return id;
  }

  private encodePromise(promise: Promise<unknown>): unknown {
    const id = this.localId(promise);
    promise.then(
      (v) => !this.stopped && this.post({ k: "settle", promise: id, ok: true, value: this.encode(v) }),
      (e) => !this.stopped && this.post({ k: "settle", promise: id, ok: false, value: this.encode(e) }),
    );
    return { [MARK]: "promise", id };
  }

  private encodeError(error: Error): unknown {
    const props: Record<string, unknown> = {};
    for (const key of Object.keys(error)) props[key] = this.encode((error as unknown as Record<string, unknown>)[key], 1);
    const ctor = error.constructor as { name?: string } | undefined;
    const sdkClass = this.sdkClassOf(error);
    return { [MARK]: "err", id: this.localId(error), name: error.name, message: error.message, stack: error.stack, props, sdkClass, ctor: ctor?.name };
  }

  /**
   * The SDK error class `error` is (or extends), by name: a learner's file and the lab may load
   * two copies of the SDK (the bundle and the package), and the name is what both agree on.
   */
  private sdkClassOf(error: Error): string | null {
    for (let proto = Object.getPrototypeOf(error); proto && proto !== Error.prototype; proto = Object.getPrototypeOf(proto)) {
      const name = (proto.constructor as { name?: string } | undefined)?.name;
      if (name && typeof this.locals.sdk[name] === "function") return name;
    }
    return null;
  }

  private encodeSignal(signal: AbortSignal): unknown {
    const id = this.localId(signal);
    if (!signal.aborted)
      signal.addEventListener("abort", () => !this.stopped && this.post({ k: "abort", signal: id, reason: this.encode(signal.reason), test: this.testNow() }), {
        once: true,
      });
    return { [MARK]: "signal", id, aborted: signal.aborted, reason: signal.aborted ? this.encode(signal.reason) : undefined };
  }

  private encodeClient(client: Record<string, unknown>): unknown {
    // The other side builds its client once, the first time this one crosses, and keeps it by id.
    if (this.idOf.has(client)) return { [MARK]: "client", id: this.localId(client) };
    const options = (client._options ?? {}) as Record<string, unknown>;
    const fetch = options.fetch as typeof globalThis.fetch | undefined;
    return {
      [MARK]: "client",
      id: this.localId(client),
      options: {
        baseURL: client.baseURL,
        apiKey: client.apiKey,
        authToken: client.authToken,
        maxRetries: client.maxRetries,
        timeout: client.timeout,
        defaultHeaders: this.encode(options.defaultHeaders ?? {}),
      },
      fetch: fetch && this.locals.serveFetch ? this.encode(this.locals.serveFetch(fetch)) : undefined,
    };
  }

  decode(value: unknown): unknown {
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((item) => this.decode(item));
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date || value instanceof RegExp) return value;
    const tagged = value as Record<string, unknown> & { id: number };
    switch (tagged[MARK]) {
      case undefined: {
        const copy: Record<string, unknown> = {};
        for (const [key, item] of Object.entries(tagged)) copy[key] = this.decode(item);
        return copy;
      }
      case "yours":
        return this.byId.get(tagged.id);
      // A function of the learner's is waited for, and stopped at the limit: its first steps run before the test goes on.
      case "fn":
        return this.proxyFor(tagged.id, "fn", String(tagged.name ?? ""), { ...NO_METHODS, applyLater: !this.guarded && tagged.later === true });
      case "obj":
        return this.proxyFor(tagged.id, "obj", "", {
          methods: new Set(tagged.methods as string[] | undefined),
          later: new Set(tagged.later as string[] | undefined),
          applyLater: false,
        });
      case "rec":
        return this.remember(tagged.id, () => {
          const copy: Record<string, unknown> = {};
          for (const [key, item] of Object.entries(tagged.fields as Record<string, unknown>)) copy[key] = this.decode(item);
          return copy;
        });
      case "promise":
        return this.remember(tagged.id, () => new Promise((resolve, reject) => this.promises.set(tagged.id, { resolve, reject })));
      case "signal":
        return this.remember(tagged.id, () => this.decodeSignal(tagged));
      case "err":
        return this.remember(tagged.id, () => this.decodeError(tagged));
      case "client":
        return this.remember(tagged.id, () => this.decodeClient(tagged));
      case "headers":
        return new Headers(tagged.entries as [string, string][]);
      default:
        return undefined;
    }
  }

  private remember<T extends object>(id: number, make: () => T): T {
    const known = this.proxies.get(id);
    if (known) return known as T;
    const made = make();
    this.proxies.set(id, made);
    this.remoteOf.set(made, id);
    return made;
  }

  private decodeSignal(tagged: Record<string, unknown> & { id: number }): AbortSignal {
    const controller = new AbortController();
    this.controllers.set(tagged.id, controller);
    if (tagged.aborted) controller.abort(this.decode(tagged.reason));
    return controller.signal;
  }

  private decodeError(tagged: Record<string, unknown>): Error {
    const sdkClass = tagged.sdkClass ? (this.locals.sdk[tagged.sdkClass as string] as ErrorConstructor | undefined) : undefined;
    const builtin = (globalThis as Record<string, unknown>)[tagged.ctor as string];
    const isErrorClass = typeof builtin === "function" && (builtin as { prototype: unknown }).prototype instanceof Error;
    // A DOMException (an abort's reason) keeps its name and code in internal slots: it must be made, not shaped.
    if (builtin === DOMException) return new DOMException(String(tagged.message), String(tagged.name));
    const base = sdkClass ?? (isErrorClass ? builtin : Error);
    const error = Object.create((base as ErrorConstructor).prototype) as Error;
    Object.defineProperty(error, "message", { value: tagged.message, writable: true, configurable: true });
    const stack = typeof tagged.stack === "string" && this.locals.mapStack ? this.locals.mapStack(tagged.stack) : tagged.stack;
    Object.defineProperty(error, "stack", { value: stack, writable: true, configurable: true });
    if (error.name !== tagged.name) Object.defineProperty(error, "name", { value: tagged.name, writable: true, configurable: true });
    for (const [key, item] of Object.entries((tagged.props ?? {}) as Record<string, unknown>))
      (error as unknown as Record<string, unknown>)[key] = this.decode(item);
    return error;
  }

  private decodeClient(tagged: Record<string, unknown>): object {
    const options = tagged.options as Record<string, unknown>;
    const remoteFetch = tagged.fetch ? (this.decode(tagged.fetch) as (...args: unknown[]) => unknown) : undefined;
    return new this.locals.sdk({
      ...options,
      defaultHeaders: this.decode(options.defaultHeaders),
      ...(remoteFetch && this.locals.wrapFetch ? { fetch: this.locals.wrapFetch(remoteFetch) } : {}),
    });
  }

  // ---- remote handles -------------------------------------------------------------------

  private proxyFor(id: number, kind: "fn" | "obj", name: string, shape: Shape): object {
    return this.remember(id, () => {
      const target = kind === "fn" ? Object.defineProperty(function () {}.bind(null), "name", { value: name }) : {};
      const call = (op: Op, extra: Partial<Message & { k: "call" }> = {}) => this.call({ op, target: id, ...extra });
      const callLater = (op: Op, extra: Partial<Message & { k: "call" }>) => this.sendLater({ op, target: id, ...extra });
      const invokers = new Map<string, (...args: unknown[]) => unknown>();
      const invoker = (key: string) => {
        let found = invokers.get(key);
        if (!found) {
          const membrane = this;
          // `obj.method(…)` in one round trip: the method is looked up over there, at the call.
          found = function (this: unknown, ...args: unknown[]) {
            if (this !== proxy) return Reflect.apply(call("get", { key }) as (...a: unknown[]) => unknown, this, args);
            const request = { key, args: args.map((a) => membrane.encode(a)) };
            return shape.later.has(key) ? callLater("invoke", request) : call("invoke", request);
          };
          Object.defineProperty(found, "name", { value: key });
          invokers.set(key, found);
        }
        return found;
      };
      const proxy: object = new Proxy(target, {
        get: (_t, key) => {
          if (key === Symbol.hasInstance && kind === "fn") return (value: unknown) => this.isInstance(value, id);
          if (typeof key === "string" && shape.methods.has(key)) return invoker(key);
          const wire = wireKey(key);
          const value = wire === null ? undefined : call("get", { key: wire });
          // What the other side does not serve (see servedKey), this side's own prototypes answer.
          if (value === undefined && typeof key === "string") return ownFallback(kind, key);
          return value;
        },
        set: (_t, key, value) => {
          const wire = wireKey(key);
          if (wire !== null) call("set", { key: wire, args: [this.encode(value)] });
          return true;
        },
        has: (_t, key) => {
          const wire = wireKey(key);
          return wire !== null && Boolean(call("has", { key: wire }));
        },
        deleteProperty: (_t, key) => {
          const wire = wireKey(key);
          return wire === null || Boolean(call("delete", { key: wire }));
        },
        ownKeys: (t) => [
          ...new Set([...(call("keys") as string[]), ...Reflect.ownKeys(t).filter((k) => !Reflect.getOwnPropertyDescriptor(t, k)?.configurable)]),
        ],
        getOwnPropertyDescriptor: (t, key) => {
          const own = Reflect.getOwnPropertyDescriptor(t, key);
          if (own && !own.configurable) return own;
          const wire = wireKey(key);
          const found = wire === null ? undefined : (call("describe", { key: wire }) as [value: unknown, enumerable: boolean, writable: boolean] | undefined);
          return found && { value: found[0], enumerable: found[1], writable: found[2], configurable: true };
        },
        apply: (_t, self, args) => (shape.applyLater ? callLater : call)("apply", { self: this.encode(self), args: args.map((a) => this.encode(a)) }),
        construct: (_t, args) => call("construct", { args: args.map((a) => this.encode(a)) }) as object,
      });
      return proxy;
    });
  }

  private isInstance(value: unknown, classId: number): boolean {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) return false;
    const id = this.remoteOf.get(value as object);
    if (id === undefined) return false;
    return Boolean(this.call({ op: "instanceof", target: classId, args: [{ [MARK]: "yours", id }] }));
  }

  /** Sends one request and waits for its answer, serving the other side meanwhile. */
  private call(request: Omit<Message & { k: "call" }, "k" | "id">): unknown {
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
      const from = monotonic();
      if (!this.watch.ringsSoon(this.bells, this.side, seen, from)) Atomics.wait(this.bells, this.side, seen, Number.isFinite(left) ? left : undefined);
      waited += monotonic() - from;
    }
  }

  // ---- serving the other side -------------------------------------------------------------

  private handle(message: Message): void {
    if (this.stopped) return;
    switch (message.k) {
      case "reply":
        this.replies.set(message.id, message);
        return;
      case "settle": {
        const owed = message.call ? this.calledLater : this.promises;
        const pending = owed.get(message.promise);
        owed.delete(message.promise);
        if (!pending) return;
        const value = this.decode(message.value);
        if (message.ok) pending.resolve(value);
        else pending.reject(value);
        return;
      }
      case "abort": {
        const controller = this.controllers.get(message.signal);
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

  private readonly draining = new Map<number, () => void>();

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

  private serve(message: Message & { k: "call" }): void {
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

  /** A call whose caller did not wait (see callLater): its outcome settles the caller's promise `id`. */
  private serveLater(message: Message & { k: "call" }): void {
    const settle = (ok: boolean, value: unknown) => !this.stopped && this.post({ k: "settle", promise: message.id, ok, value: this.encode(value), call: true });
    try {
      Promise.resolve(this.perform(message)).then(
        (value) => settle(true, value),
        (error) => settle(false, error),
      );
    } catch (error) {
      settle(false, error);
    }
  }

  /**
   * Calls the other side's function `fn` (a handle this side holds) without waiting for it: the
   * promise settles when it does. For a call known to be asynchronous (a fetch), where waiting
   * for the other side to start it only holds this side up.
   */
  callLater(fn: unknown, args: unknown[]): Promise<unknown> {
    const target = this.remoteOf.get(fn as object);
    if (target === undefined) return Promise.reject(new TypeError("Not a function of the other side."));
    return this.sendLater({ op: "apply", target, args: args.map((a) => this.encode(a)) });
  }

  private sendLater(request: Omit<Message & { k: "call" }, "k" | "id">): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    const settled = new Promise((resolve, reject) => this.calledLater.set(id, { resolve, reject }));
    this.post({ k: "call", id, ...request, later: true, test: this.testNow() });
    this.watchLater();
    return settled;
  }

  /** The realm's last sign of life, asked for while it owes answers to calls not waited for (see watchLater). */
  private ping: { sentAt: number; answered: boolean } | null = null;
  private watchTimer: ReturnType<typeof setTimeout> | null = null;
  private lastWatch = 0;

  /**
   * While the learner's realm owes this side the outcome of a call not waited for, it must keep
   * answering: each tick asks it to drain (see settled), and a realm that leaves the question
   * unanswered for limitMs is stuck, as a call waited on for that long would be. A tick that
   * comes late (this side was busy, the realm perhaps waiting on it) asks again instead of judging.
   */
  private watchLater(): void {
    if (!this.guarded || !Number.isFinite(this.limitMs) || this.watchTimer !== null) return;
    const tickMs = Math.min(WATCH_TICK_MS, this.limitMs / 4);
    const tick = () => {
      this.watchTimer = null;
      const now = monotonic();
      const late = now - this.lastWatch > 2 * tickMs;
      this.lastWatch = now;
      // Whatever already arrived first: the answer may be waiting behind this tick.
      for (let next = receiveMessageOnPort(this.port); next && !this.stopped; next = receiveMessageOnPort(this.port)) this.handle(next.message as Message);
      if (this.stopped || this.calledLater.size === 0) {
        this.ping = null;
        return;
      }
      if (this.ping === null || this.ping.answered || late) {
        const ping = { sentAt: now, answered: false };
        this.ping = ping;
        // Answered at once, not a promise later: the next tick may judge in the same turn it reads the answer.
        this.askDrain(() => (ping.answered = true));
      } else if (now - this.ping.sentAt >= this.limitMs) {
        this.onStuck(stuckFor(this.limitMs));
        return;
      }
      this.watchTimer = realSetTimeout(tick, tickMs);
      this.watchTimer.unref?.();
    };
    this.lastWatch = monotonic();
    this.watchTimer = realSetTimeout(tick, 0);
    this.watchTimer.unref?.();
  }

  private perform(message: Message & { k: "call" }): unknown {
    const target = this.byId.get(message.target) as Record<PropertyKey, unknown> & ((...a: unknown[]) => unknown);
    if (target === undefined || !this.served.has(message.target)) throw new Error(MEMBRANE_MESSAGES.noSuchObject);
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

const ASYNC_FUNCTION = Object.getPrototypeOf(async function () {}) as object;
const isAsyncFunction = (value: unknown) => typeof value === "function" && Object.getPrototypeOf(value) === ASYNC_FUNCTION;

/** How a handle is called: the methods that take one round trip, and what may be called without waiting (see callsLater). */
interface Shape {
  methods: ReadonlySet<string>;
  /** Methods called without waiting. */
  later: ReadonlySet<string>;
  /** The handle itself, a function, is called without waiting. */
  applyLater: boolean;
}
const NO_METHODS = { methods: new Set<string>(), later: new Set<string>() };

export const MEMBRANE_MESSAGES = {
  noSuchObject: "That object does not exist on this side, or was never handed over.",
  unserved: (key: string) => `"${key}" of the tests' objects is not for your code to reach.`,
} as const;

/**
 * Keys of the trusted side's objects the learner's realm must never reach: each leads from
 * any object to the trusted realm's Function constructor, a prototype, or a caller.
 */
const UNSERVED = new Set([
  "constructor",
  "prototype",
  "__proto__",
  "caller",
  "arguments",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
]);

/**
 * Whether `key` of the trusted `target` may be served: never an UNSERVED key, and only a
 * property the object or one of its own classes holds, never one it inherits from
 * Object.prototype or Function.prototype (the roots every escape starts from).
 */
function servedKey(target: object, key: PropertyKey): boolean {
  if (typeof key === "string" && UNSERVED.has(key)) return false;
  for (let at: object | null = target; at !== null && at !== Object.prototype && at !== Function.prototype; at = Object.getPrototypeOf(at)) {
    if (Object.hasOwn(at, key)) return true;
  }
  return false;
}

/**
 * The methods every function and object has, taken from this realm's own prototypes when the
 * other side does not serve them: `dispatch.call(null, …)` or `tool.hasOwnProperty("run")` work
 * through the proxy's traps without reaching the other realm's Function or Object.
 */
const FALLBACKS = {
  fn: new Set(["call", "apply", "bind", "toString"]),
  obj: new Set(["hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toString", "toLocaleString", "valueOf"]),
} as const;

function ownFallback(kind: "fn" | "obj", key: string): unknown {
  if (FALLBACKS[kind].has(key))
    return (kind === "fn" ? (Function.prototype as unknown as Record<string, unknown>) : (Object.prototype as Record<string, unknown>))[key];
  return undefined;
}

function wireKey(key: PropertyKey): Key | null {
  if (typeof key === "string") return key;
  const known = WELL_KNOWN.find((name) => Symbol[name] === key);
  return known ? { sym: known } : null;
}

/**
 * The names an object's methods answer to, its own and its classes' (never Object.prototype's):
 * a proxy calls them in one round trip (see proxyFor). A name a field shadows is no method.
 */
function methodNames(value: object, guarded: boolean): string[] {
  const seen = new Set<string>();
  const methods: string[] = [];
  for (let at: object | null = value; at !== null && at !== Object.prototype && at !== Function.prototype; at = Object.getPrototypeOf(at)) {
    for (const key of Object.getOwnPropertyNames(at)) {
      if (seen.has(key)) continue;
      seen.add(key);
      if (key === "constructor" || (guarded && UNSERVED.has(key))) continue;
      const found = Object.getOwnPropertyDescriptor(at, key)!;
      if ("value" in found && typeof found.value === "function") methods.push(key);
    }
  }
  return methods;
}

/** A frozen object of a plain prototype holding no accessor: a copy of it is the object, for good. */
function isFrozenRecord(value: object): boolean {
  if (!Object.isFrozen(value) || typeof value === "function") return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(Object.getOwnPropertyDescriptors(value)).every((found) => "value" in found);
}

/**
 * An object that is data through and through: a plain prototype, no function, no accessor. An
 * object holding a function crosses as a handle instead, so its fields stay live: a guard's
 * `{ halted, check() }` whose `check` sets `halted` reads the same on both sides.
 */
function isPlainData(value: object, depth: number): boolean {
  if (depth > 64) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key of Object.keys(value)) {
    const found = Object.getOwnPropertyDescriptor(value, key)!;
    if (!("value" in found) || typeof found.value === "function") return false;
  }
  return true;
}
