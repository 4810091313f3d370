/**
 * The worker's side of leftovers.ts: a snapshot of the process at a file's start (resources
 * keeping it alive, the own properties of globalThis, of every built-in global and its
 * prototype, of process, its environment and Node's built-in modules, and process's
 * listeners), compared when the pool asks after the file. What vitest itself changes
 * (VITEST_PROCESS_STATE in vitest-internals.ts) is not the file's doing and is left out.
 */
import { Buffer } from "node:buffer";
import { createRequire } from "node:module";
import { VITEST_PROCESS_STATE } from "../vitest-internals.js";
import { LEFTOVER_KEY as KEY, LEFTOVER_MESSAGES, isLeftoverMessage, type LeftoverMessage } from "./leftovers.js";

/** How long a worker waits for its file's sockets and servers to finish closing. */
const SETTLE_MS = 100;

type Slot = [value: unknown, get: unknown, set: unknown];

const VITEST_FIRST_RUN = new Set<string>(VITEST_PROCESS_STATE.firstRun);
const VITEST_EVERY_RUN = new Set<string>(VITEST_PROCESS_STATE.everyRun);
const VITEST_EVENTS = new Set<string | symbol>(VITEST_PROCESS_STATE.events);
/** Whether `holder.key` changing is vitest's doing, not the file's (see VITEST_PROCESS_STATE). */
function vitestOwn(holder: string, key: PropertyKey, firstFile: boolean): boolean {
  if (holder === "globalThis" && VITEST_PROCESS_STATE.globals.test(String(key))) return true;
  const at = `${holder}.${String(key)}`;
  return VITEST_EVERY_RUN.has(at) || (firstFile && VITEST_FIRST_RUN.has(at));
}

interface Snapshot {
  resources: Map<string, number>;
  holders: Map<string, { of: object; slots: Map<PropertyKey, Slot> }>;
  listeners: Map<string | symbol, Function[]>;
}

/** Node's built-in modules a file could patch for the next one (their exports outlive vitest's module reset). */
const BUILT_INS = ["fs", "fs/promises", "http", "https", "net", "events", "timers", "child_process", "os", "path", "util", "stream", "url"];
const builtIns = (() => {
  const require = createRequire(import.meta.url);
  return () => BUILT_INS.map((name): [string, object] => [`node:${name}`, require(`node:${name}`) as object]);
})();

const isObject = (value: unknown): value is object => (typeof value === "object" && value !== null) || typeof value === "function";

function slotsOf(holder: object): Map<PropertyKey, Slot> {
  const slots = new Map<PropertyKey, Slot>();
  for (const key of Reflect.ownKeys(holder)) {
    const d = Reflect.getOwnPropertyDescriptor(holder, key);
    if (d) slots.set(key, [d.value, d.get, d.set]);
  }
  return slots;
}

/** The objects whose own properties are compared: globalThis, every built-in global and its prototype, process, its environment, built-in modules. */
function holdersNow(): [string, object][] {
  const holders: [string, object][] = [
    ["globalThis", globalThis],
    ["process", process],
    ["process.env", process.env],
    ["Buffer", Buffer],
    ["Buffer.prototype", Buffer.prototype],
    ...builtIns(),
  ];
  for (const key of Reflect.ownKeys(globalThis)) {
    const value = Reflect.getOwnPropertyDescriptor(globalThis, key)?.value;
    if (!isObject(value) || value === globalThis || vitestOwn("globalThis", key, false)) continue;
    const name = String(key);
    holders.push([name, value]);
    const prototype = (value as { prototype?: unknown }).prototype;
    if (typeof value === "function" && isObject(prototype)) holders.push([`${name}.prototype`, prototype]);
  }
  return holders;
}

function resourceCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

function take(): Snapshot {
  const holders = new Map<string, { of: object; slots: Map<PropertyKey, Slot> }>();
  for (const [name, of] of holdersNow()) if (!holders.has(name)) holders.set(name, { of, slots: slotsOf(of) });
  const listeners = new Map<string | symbol, Function[]>();
  for (const event of process.eventNames()) listeners.set(event, process.rawListeners(event));
  return { resources: resourceCounts(), holders, listeners };
}

const same = (a: Slot, b: Slot) => Object.is(a[0], b[0]) && a[1] === b[1] && a[2] === b[2];
const at = (holder: string, key: PropertyKey) => `${holder}[${typeof key === "symbol" ? key.toString() : JSON.stringify(key)}]`;

function extraResources(before: Snapshot, now = resourceCounts()): string[] {
  const found: string[] = [];
  for (const [type, count] of now) {
    const extra = count - (before.resources.get(type) ?? 0);
    if (extra > 0) found.push(LEFTOVER_MESSAGES.resource(type, extra));
  }
  return found;
}

/**
 * What `now` has that `before` did not, in words: resources still active, then changed
 * properties and listeners; empty when nothing. `firstFile`: vitest's own first-run set-up
 * happened in between.
 */
function differences(before: Snapshot, now: Snapshot, firstFile: boolean): string[] {
  const found = extraResources(before, now.resources);
  for (const [name, { of, slots }] of before.holders) {
    const holder = now.holders.get(name);
    // Gone or replaced whole: that is globalThis's change (or vitest's own), not this object's.
    if (holder?.of !== of) continue;
    const current = holder.slots;
    for (const [key, slot] of slots) {
      if (vitestOwn(name, key, firstFile)) continue;
      const was = current.get(key);
      if (!was) found.push(LEFTOVER_MESSAGES.removed(at(name, key)));
      else if (!same(slot, was)) found.push(LEFTOVER_MESSAGES.changed(at(name, key)));
    }
    for (const key of current.keys()) if (!slots.has(key) && !vitestOwn(name, key, firstFile)) found.push(LEFTOVER_MESSAGES.added(at(name, key)));
  }
  for (const event of new Set([...before.listeners.keys(), ...now.listeners.keys()])) {
    if (firstFile && VITEST_EVENTS.has(event)) continue;
    const was = before.listeners.get(event) ?? [];
    const is = now.listeners.get(event) ?? [];
    if (was.length !== is.length || was.some((listener, i) => listener !== is[i])) found.push(LEFTOVER_MESSAGES.listeners(String(event)));
  }
  return found;
}

export interface LeftoverWatchHooks {
  /** Ends the process; a run it was about to start counts as a crash, which a fresh process then confirms or not. */
  exit(code: number): void;
  /** Sends the answer to the pool. */
  reply(message: LeftoverMessage): void;
}

/** The exit code of a kept worker that found itself changed since its last check. */
export const CHANGED_SINCE_CHECK_EXIT = 70;

/**
 * The worker's side: snapshots at a file's start, compares when asked, and ends a process
 * changed since its last check. Returns whether `message` was one of the pool's questions.
 */
export function leftoverWatch(hooks: LeftoverWatchHooks): (message: unknown) => boolean {
  let atStart: Snapshot | null = null;
  let atCheck: Snapshot | null = null;
  let checks = 0;
  return (message) => {
    if (!isLeftoverMessage(message)) return false;
    if (message[KEY] === "start") {
      const now = take();
      // Something of the last file acted after it was checked (a timer that was not keeping
      // the process alive): this run would not be what a fresh process gives, so end it.
      if (atCheck && differences(atCheck, now, false).length > 0) {
        hooks.exit(CHANGED_SINCE_CHECK_EXIT);
        return true;
      }
      atStart = now;
    } else if (message[KEY] === "check") {
      const before = atStart;
      const firstFile = checks++ === 0;
      void settle(before).then(() => {
        const now = take();
        atCheck = now;
        hooks.reply({ [KEY]: "found", found: before ? differences(before, now, firstFile) : [LEFTOVER_MESSAGES.noAnswer] });
      });
    }
    return true;
  };
}

/** Waits up to SETTLE_MS for the resources the file opened to close. */
async function settle(before: Snapshot | null): Promise<void> {
  if (!before) return;
  if (prepared) await (await import("../../testing/index.js")).closeIdleSharedConnections();
  const deadline = performance.now() + SETTLE_MS;
  while (extraResources(before).length > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
}

let prepared = false;

/**
 * Run once, before vitest starts, in a worker that may be kept: what any first file would do
 * to the process anyway (Node's lazily defined globals, undici's dispatcher, the shared
 * provider) is done now, so that it is in the first snapshot and never counts as a leftover.
 */
export async function prepareForLeftoverChecks(): Promise<void> {
  for (const key of Reflect.ownKeys(globalThis)) {
    const d = Reflect.getOwnPropertyDescriptor(globalThis, key);
    if (d?.get && d.set) Reflect.get(globalThis, key);
  }
  await (await import("../../testing/index.js")).warmSharedProvider();
  prepared = true;
}
