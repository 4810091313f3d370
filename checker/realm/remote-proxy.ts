/**
 * A handle to a function or object of the other side (see membrane.ts): a Proxy whose every
 * trap is a call across. A method the other side listed when it handed the object over is
 * called in one round trip (`invoke`), the method looked up over there at the call.
 */
import { type Call, type Op, ownFallback, wireKey } from "./crossing.js";

/** How a handle is called: the methods that take one round trip, and what may be called without waiting. */
export interface Shape {
  methods: ReadonlySet<string>;
  /** Methods called without waiting. */
  later: ReadonlySet<string>;
  /** The handle itself, a function, is called without waiting. */
  applyLater: boolean;
}
export const NO_METHODS = { methods: new Set<string>(), later: new Set<string>() };

export type CallParts = Partial<Pick<Call, "key" | "self" | "args">>;

/** What a handle needs of its membrane. */
export interface HandleLink {
  /** Calls the other side's value `target` and waits for its answer. */
  call(op: Op, target: number, parts?: CallParts): unknown;
  /** Calls it without waiting: the promise settles with the outcome. */
  callLater(op: Op, target: number, parts: CallParts): Promise<unknown>;
  encode(value: unknown): unknown;
  /** Whether `value` (a handle of the other side's) is an instance of the other side's class `classId`. */
  isInstance(value: unknown, classId: number): boolean;
}

export function remoteProxy(link: HandleLink, id: number, kind: "fn" | "obj", name: string, shape: Shape): object {
  const target = kind === "fn" ? Object.defineProperty(function () {}.bind(null), "name", { value: name }) : {};
  const call = (op: Op, parts?: CallParts) => link.call(op, id, parts);
  const invokers = new Map<string, (...args: unknown[]) => unknown>();
  const invoker = (key: string) => {
    let found = invokers.get(key);
    if (!found) {
      // `obj.method(…)` in one round trip: the method is looked up over there, at the call.
      found = function (this: unknown, ...args: unknown[]) {
        if (this !== proxy) return Reflect.apply(call("get", { key }) as (...a: unknown[]) => unknown, this, args);
        const request = { key, args: args.map((a) => link.encode(a)) };
        return shape.later.has(key) ? link.callLater("invoke", id, request) : call("invoke", request);
      };
      Object.defineProperty(found, "name", { value: key });
      invokers.set(key, found);
    }
    return found;
  };
  const proxy: object = new Proxy(target, {
    get: (_t, key) => {
      if (key === Symbol.hasInstance && kind === "fn") return (value: unknown) => link.isInstance(value, id);
      if (typeof key === "string" && shape.methods.has(key)) return invoker(key);
      const wire = wireKey(key);
      const value = wire === null ? undefined : call("get", { key: wire });
      // What the other side does not serve (see servedKey), this side's own prototypes answer.
      if (value === undefined && typeof key === "string") return ownFallback(kind, key);
      return value;
    },
    set: (_t, key, value) => {
      const wire = wireKey(key);
      if (wire !== null) call("set", { key: wire, args: [link.encode(value)] });
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
    ownKeys: (t) => [...new Set([...(call("keys") as string[]), ...Reflect.ownKeys(t).filter((k) => !Reflect.getOwnPropertyDescriptor(t, k)?.configurable)])],
    getOwnPropertyDescriptor: (t, key) => {
      const own = Reflect.getOwnPropertyDescriptor(t, key);
      if (own && !own.configurable) return own;
      const wire = wireKey(key);
      const found = wire === null ? undefined : (call("describe", { key: wire }) as [value: unknown, enumerable: boolean, writable: boolean] | undefined);
      return found && { value: found[0], enumerable: found[1], writable: found[2], configurable: true };
    },
    apply: (_t, self, args) => {
      const parts = { self: link.encode(self), args: args.map((a) => link.encode(a)) };
      return shape.applyLater ? link.callLater("apply", id, parts) : call("apply", parts);
    },
    construct: (_t, args) => call("construct", { args: args.map((a) => link.encode(a)) }) as object,
  });
  return proxy;
}
