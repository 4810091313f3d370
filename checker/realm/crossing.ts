/**
 * What the membrane (membrane.ts) sends across, and the rules for what of an object may cross:
 * the messages on the port, which keys of the trusted side's objects are served, which methods
 * a handle calls in one round trip, and which objects are data that cross as copies.
 */

/** Marks a value that crosses as a description (a handle, a promise, an error…) rather than as plain data. */
export const MARK = "\u0000lab";

const WELL_KNOWN = ["asyncIterator", "hasInstance", "iterator", "toPrimitive", "toStringTag"] as const;

export type Key = string | { sym: (typeof WELL_KNOWN)[number] };
export type Op = "apply" | "construct" | "get" | "set" | "has" | "delete" | "keys" | "describe" | "instanceof" | "invoke";
export type Call = { k: "call"; id: number; op: Op; target: number; key?: Key; self?: unknown; args?: unknown[]; later?: boolean; test?: number };
export type Message =
  | Call
  | { k: "reply"; id: number; ok: boolean; value: unknown }
  | { k: "settle"; promise: number; ok: boolean; value: unknown; call?: boolean }
  | { k: "abort"; signal: number; reason: unknown; test?: number }
  | { k: "exit"; code: number }
  | { k: "drain"; id: number }
  | { k: "drained"; id: number }
  | { k: "output"; text: string; test?: number };

export const MEMBRANE_MESSAGES = {
  noSuchObject: "That object does not exist on this side, or was never handed over.",
  unserved: (key: string) => `"${key}" of the tests' objects is not for your code to reach.`,
} as const;

const ASYNC_FUNCTION = Object.getPrototypeOf(async function () {}) as object;
export const isAsyncFunction = (value: unknown) => typeof value === "function" && Object.getPrototypeOf(value) === ASYNC_FUNCTION;

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
export function servedKey(target: object, key: PropertyKey): boolean {
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

export function ownFallback(kind: "fn" | "obj", key: string): unknown {
  if (FALLBACKS[kind].has(key))
    return (kind === "fn" ? (Function.prototype as unknown as Record<string, unknown>) : (Object.prototype as Record<string, unknown>))[key];
  return undefined;
}

/** A property key as it crosses: a string, or one of the well-known symbols by name; null for any other symbol. */
export function wireKey(key: PropertyKey): Key | null {
  if (typeof key === "string") return key;
  const known = WELL_KNOWN.find((name) => Symbol[name] === key);
  return known ? { sym: known } : null;
}

/**
 * The names an object's methods answer to, its own and its classes' (never Object.prototype's):
 * a proxy calls them in one round trip (see remote-proxy.ts). A name a field shadows is no method.
 */
export function methodNames(value: object, guarded: boolean): string[] {
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

/** Whether `value` was made by an object literal or Object.create(null): no class of its own. */
function hasPlainPrototype(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A frozen object of a plain prototype holding no accessor: a copy of it is the object, for good. */
export function isFrozenRecord(value: object): boolean {
  if (!Object.isFrozen(value) || typeof value === "function" || !hasPlainPrototype(value)) return false;
  return Object.values(Object.getOwnPropertyDescriptors(value)).every((found) => "value" in found);
}

/**
 * An object that is data through and through: a plain prototype, no function, no accessor. An
 * object holding a function crosses as a handle instead, so its fields stay live: a guard's
 * `{ halted, check() }` whose `check` sets `halted` reads the same on both sides.
 */
export function isPlainData(value: object, depth: number): boolean {
  if (depth > 64 || !hasPlainPrototype(value)) return false;
  for (const key of Object.keys(value)) {
    const found = Object.getOwnPropertyDescriptor(value, key)!;
    if (!("value" in found) || typeof found.value === "function") return false;
  }
  return true;
}
