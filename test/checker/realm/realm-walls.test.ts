/**
 * What the learner's realm can never reach on the test's side, tried as a hostile learner
 * would: through the proxies it is handed, and around them, straight on the membrane's port.
 */
import { describe, expect, test } from "vitest";
import { learnerRealms } from "./learner-realms.js";
import { realmFlags } from "../../../dist/checker/realm/host.js";

const { learner } = learnerRealms("realm-walls");

/** Something only the test's side holds: if it ever reaches the learner's realm, the wall fell. */
const TEST_SIDE_SECRET = "test-side-secret-5e1f";
(globalThis as Record<string, unknown>).labTestSecret = TEST_SIDE_SECRET;

describe("through the proxies it is handed", () => {
  test("a test's function never yields its realm's Function, prototype or caller, yet call, apply and bind still work", async () => {
    const m = await learner(
      "escape",
      `export function tryEscape(f: any) {
         const tries: Record<string, unknown> = {};
         for (const route of ["constructor", "prototype", "__proto__", "caller", "arguments", "__lookupGetter__"]) tries[route] = typeof f[route];
         try { tries.viaConstructor = f.constructor("return globalThis.labTestSecret")(); } catch (e) { tries.viaConstructor = "threw"; }
         try { tries.viaProto = Object.getPrototypeOf(f).constructor("return globalThis.labTestSecret")(); } catch (e) { tries.viaProto = "threw"; }
         tries.call = f.call(null, 2);
         tries.apply = f.apply(null, [3]);
         tries.bind = f.bind(null, 4)();
         return tries;
       }`,
    );
    const tries = m.tryEscape((x: number) => x * 10);
    expect(JSON.stringify(tries)).not.toContain(TEST_SIDE_SECRET);
    expect(tries).toMatchObject({ constructor: "undefined", prototype: "undefined", __proto__: "undefined", caller: "undefined", arguments: "undefined" });
    expect(tries).toMatchObject({ call: 20, apply: 30, bind: 40 });
  });

  test("a test's object serves its own fields and its class's methods, never what Object.prototype holds", async () => {
    const m = await learner(
      "object",
      `export function look(o: any) {
         return { own: o.name, method: o.describe(), keys: Object.keys(o), ctor: typeof o.constructor, has: o.hasOwnProperty("name"), str: String(o) };
       }`,
    );
    class Tool {
      name = "search";
      describe() {
        return `tool ${this.name}`;
      }
    }
    expect(m.look(new Tool())).toEqual({ own: "search", method: "tool search", keys: ["name"], ctor: "undefined", has: true, str: "[object Object]" });
  });
});

describe("around them, on the membrane's port", () => {
  test("a forged call names only what was handed over, and gets no key the proxies would not give", async () => {
    const m = await learner(
      "port",
      `import { workerData } from "node:worker_threads";
       export async function forge(handed: unknown): Promise<unknown[]> {
         const port = (workerData as any).port;
         const answers: unknown[] = [];
         let all: () => void = () => {};
         const answered = new Promise<void>((resolve) => (all = resolve));
         port.on("message", (msg: any) => { if (msg.k === "reply" && msg.id >= 1e9 && answers.push(msg) === 160) all(); });
         let id = 1e9;
         for (let target = 0; target < 40; target++) {
           for (const key of ["constructor", "__proto__", "prototype"]) port.postMessage({ k: "call", id: id++, op: "get", target, key });
           port.postMessage({ k: "call", id: id++, op: "apply", target, args: ["return globalThis.labTestSecret"] });
         }
         await answered;
         return answers;
       }`,
    );
    const answers = (await m.forge((x: number) => x)) as Array<{ ok: boolean; value: unknown }>;
    expect(answers.length).toBe(160);
    expect(JSON.stringify(answers)).not.toContain(TEST_SIDE_SECRET);
    // The one function handed over may be called; none of the forged gets yields a function.
    const functions = answers.filter((a) => a.ok && typeof a.value === "object" && a.value !== null && JSON.stringify(a.value).includes('"fn"'));
    expect(functions).toEqual([]);
  });
});

describe("its own walls", () => {
  test("behind grading's walls, the realm is walled by the same flags but may start no thread", () => {
    const flags = [
      "--experimental-permission",
      "--allow-fs-read=/lab/*",
      "--allow-fs-write=/tmp/x/*",
      "--allow-worker",
      "--import=/lab/preload.js",
      "--max-old-space-size=512",
    ];
    expect(realmFlags(flags)).toEqual([
      "--experimental-permission",
      "--allow-fs-read=/lab/*",
      "--allow-fs-write=/tmp/x/*",
      "--disable-warning=ExperimentalWarning",
    ]);
    expect(realmFlags(["--permission", "--allow-fs-read=/lab/*", "--allow-worker"])).toEqual([
      "--permission",
      "--allow-fs-read=/lab/*",
      "--disable-warning=ExperimentalWarning",
    ]);
    expect(realmFlags(["--import=/lab/preload.js", "--conditions=lab-bundled-sdk"])).toEqual([]);
  });
});
