/**
 * How values cross the membrane (membrane.ts), on either side: plain data as a structured-clone
 * copy; everything with behaviour (functions, class instances, objects holding functions) as a
 * handle the other side reaches through a proxy (remote-proxy.ts); errors, promises,
 * AbortSignals, Headers and SDK clients as descriptions the other side rebuilds with its own
 * classes, so `instanceof` holds there. What has crossed is kept in a HandleTable, so a value
 * crosses back as itself.
 */
import { type Message, isAsyncFunction, isFrozenRecord, isPlainData, MARK, methodNames } from "./crossing.js";
import { HandleTable } from "./handle-table.js";
import { type HandleLink, NO_METHODS, remoteProxy, type Shape } from "./remote-proxy.js";
import type { TestContext } from "./test-context.js";

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

/** What the codec needs of its membrane. */
export interface CodecSide {
  /** Posts the message `make` makes to the other side, unless this side has stopped (then nothing is made, or encoded). */
  postUnlessStopped(make: () => Message): void;
  testNow(): number | undefined;
  /** What the proxies of the other side's values call through. */
  link: HandleLink;
}

export type Pending = { resolve(v: unknown): void; reject(e: unknown): void };

let headersMade = false;
/**
 * Whether Node has built its Headers class yet. It comes with fetch, made on first use of either
 * (~15 ms of CPU in a new realm), and until then no value can be a Headers: asking `instanceof`
 * would build it for nothing in a realm whose code never fetches.
 */
const headersExist = () => headersMade || (headersMade = typeof Object.getOwnPropertyDescriptor(globalThis, "Headers")?.get !== "function");

export class Codec {
  readonly handles = new HandleTable();
  /** The other side's promises, by its ids, settled when it says so (see Membrane's "settle"). */
  readonly promises = new Map<number, Pending>();
  /** What aborts the other side's signals here, by their ids (see Membrane's "abort"). */
  readonly controllers = new Map<number, AbortController>();
  /** The shape of each object handed out, as first seen (see shapeOf). */
  private readonly shapes = new Map<number, { methods: string[]; later: string[] }>();

  constructor(
    private readonly side: CodecSide,
    private readonly locals: Locals,
    /** The trusted side: its async functions may be called without waiting, and its frozen objects cross as copies. */
    private readonly guarded: boolean,
  ) {}

  encode(value: unknown, depth = 0): unknown {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) {
      return typeof value === "symbol" ? undefined : value;
    }
    const remote = this.handles.remoteId(value as object);
    if (remote !== undefined) return { [MARK]: "yours", id: remote };
    if (typeof value === "function") return { [MARK]: "fn", id: this.handles.handOut(value), name: value.name, later: this.callsLater(value) };
    if (value instanceof Promise) return this.encodePromise(value);
    if (value instanceof Error) return this.encodeError(value);
    if (value instanceof AbortSignal) return this.encodeSignal(value);
    if (value instanceof this.locals.sdk) return this.encodeClient(value as Record<string, unknown>);
    if (headersExist() && value instanceof Headers) return { [MARK]: "headers", entries: [...value] };
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date || value instanceof RegExp) return value;
    if (Array.isArray(value)) return value.map((item) => this.encode(item, depth + 1));
    if (isPlainData(value, depth)) return this.encodeFields(value, depth);
    // A test's frozen object, functions among its fields: nothing about it can change, so it
    // crosses as a copy whose functions are handles, and crosses back as itself.
    if (this.guarded && isFrozenRecord(value)) return { [MARK]: "rec", id: this.handles.handOut(value), fields: this.encodeFields(value, depth) };
    const id = this.handles.handOut(value);
    let shape = this.shapes.get(id);
    if (!shape) this.shapes.set(id, (shape = this.shapeOf(value)));
    return { [MARK]: "obj", id, ...shape };
  }

  /**
   * An object's methods, and those of them the other side may call without waiting: the test's
   * async methods (see callsLater), and the learner's, whose first steps the test's side does
   * not wait for either: a realm that stops answering meanwhile is stopped by the owed watch (owed-watch.ts).
   */
  private shapeOf(value: object): { methods: string[]; later: string[] } {
    const methods = methodNames(value, this.guarded);
    return { methods, later: methods.filter((key) => isAsyncFunction((value as Record<string, unknown>)[key])) };
  }

  /**
   * Whether the other side may call `value` without waiting for it: an async function of the
   * test's (ours, so its first steps never hang) returns a promise at once whatever it does,
   * so the learner's realm goes on and the promise settles when the test's side has run it.
   */
  private callsLater(value: unknown): boolean {
    return this.guarded && isAsyncFunction(value);
  }

  /** An object's own enumerable fields, each encoded. */
  private encodeFields(value: object, depth: number): Record<string, unknown> {
    const fields: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) fields[key] = this.encode(item, depth + 1);
    return fields;
  }

  private encodePromise(promise: Promise<unknown>): unknown {
    const id = this.handles.localId(promise);
    promise.then(
      (v) => this.side.postUnlessStopped(() => ({ k: "settle", promise: id, ok: true, value: this.encode(v) })),
      (e) => this.side.postUnlessStopped(() => ({ k: "settle", promise: id, ok: false, value: this.encode(e) })),
    );
    return { [MARK]: "promise", id };
  }

  private encodeError(error: Error): unknown {
    const props: Record<string, unknown> = {};
    for (const key of Object.keys(error)) props[key] = this.encode((error as unknown as Record<string, unknown>)[key], 1);
    const ctor = error.constructor as { name?: string } | undefined;
    const sdkClass = this.sdkClassOf(error);
    return { [MARK]: "err", id: this.handles.localId(error), name: error.name, message: error.message, stack: error.stack, props, sdkClass, ctor: ctor?.name };
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
    const id = this.handles.localId(signal);
    if (!signal.aborted)
      signal.addEventListener(
        "abort",
        () => this.side.postUnlessStopped(() => ({ k: "abort", signal: id, reason: this.encode(signal.reason), test: this.side.testNow() })),
        {
          once: true,
        },
      );
    return { [MARK]: "signal", id, aborted: signal.aborted, reason: signal.aborted ? this.encode(signal.reason) : undefined };
  }

  private encodeClient(client: Record<string, unknown>): unknown {
    // The other side builds its client once, the first time this one crosses, and keeps it by id.
    if (this.handles.crossed(client)) return { [MARK]: "client", id: this.handles.localId(client) };
    const options = (client._options ?? {}) as Record<string, unknown>;
    const fetch = options.fetch as typeof globalThis.fetch | undefined;
    return {
      [MARK]: "client",
      id: this.handles.localId(client),
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
      case undefined:
        return this.decodeFields(tagged);
      case "yours":
        return this.handles.local(tagged.id);
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
        return this.handles.remember(tagged.id, () => this.decodeFields(tagged.fields as Record<string, unknown>));
      case "promise":
        return this.handles.remember(tagged.id, () => new Promise((resolve, reject) => this.promises.set(tagged.id, { resolve, reject })));
      case "signal":
        return this.handles.remember(tagged.id, () => this.decodeSignal(tagged));
      case "err":
        return this.handles.remember(tagged.id, () => this.decodeError(tagged));
      case "client":
        return this.handles.remember(tagged.id, () => this.decodeClient(tagged));
      case "headers":
        return new Headers(tagged.entries as [string, string][]);
      default:
        return undefined;
    }
  }

  private decodeFields(fields: Record<string, unknown>): Record<string, unknown> {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(fields)) copy[key] = this.decode(item);
    return copy;
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

  private proxyFor(id: number, kind: "fn" | "obj", name: string, shape: Shape): object {
    return this.handles.remember(id, () => remoteProxy(this.side.link, id, kind, name, shape));
  }
}
