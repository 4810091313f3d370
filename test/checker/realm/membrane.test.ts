/**
 * The boundary between a hidden test and the learner's realm, on a real worker thread with
 * the learner's code bundled by the real bundler (bundleLearner, import wall included).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, test } from "vitest";
import { learnerRealms } from "./learner-realms.js";
import { bundleLearner } from "../../../dist/checker/realm/bundle.js";
import { REALM_MESSAGES } from "../../../dist/checker/realm/messages.js";
import { CALL_LIMIT_ENV, OUTPUT_CAP, outputCut } from "../../../dist/checker/realm/host.js";
import { testContext } from "../../../dist/checker/realm/test-context.js";

const { dir, realms, learner } = learnerRealms("realm-test");

describe("what crosses the boundary", () => {
  test("plain data by structured clone, typed arrays included, and sync exports stay sync", async () => {
    const m = await learner(
      "data",
      `export function unit(v: number[]): Float32Array { const n = Math.hypot(...v); return Float32Array.from(v, (x) => x / n); }\nexport const PRICE = { a: { in: 5 } };`,
    );
    const out = m.unit([3, 4]);
    expect(out).toBeInstanceOf(Float32Array);
    expect([...out]).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(m.PRICE).toEqual({ a: { in: 5 } });
  });

  test("functions in both directions, awaited, and instances whose fields and getters read through", async () => {
    const m = await learner(
      "fns",
      `export async function twice(f: (x: number) => Promise<number>, x: number) { return (await f(x)) + (await f(x)); }
       export class Counter { n = 0; get doubled() { return this.n * 2; } bump(by: (n: number) => number) { this.n = by(this.n); return this; } }`,
    );
    expect(await m.twice(async (x: number) => x + 1, 1)).toBe(4);
    const counter = new m.Counter();
    expect(counter.bump((n: number) => n + 5)).toBe(counter);
    expect(counter.n).toBe(5);
    expect(counter.doubled).toBe(10);
    expect(counter).toBeInstanceOf(m.Counter);
    expect({} instanceof m.Counter).toBe(false);
  });

  test("errors keep their class, fields and identity; an SDK client arrives configured as it was", async () => {
    const m = await learner(
      "errors",
      `import Anthropic from "@anthropic-ai/sdk";
       export class BudgetExceeded extends Error {}
       export function spend() { throw new BudgetExceeded("over by $0.10"); }
       export function rateLimited() { throw new Anthropic.RateLimitError(429, { type: "error" }, "slow down", new Headers({ "retry-after": "2" })); }
       export async function rethrow(f: () => Promise<void>) { await f(); }
       export function configured(c: Anthropic) { return [c.baseURL, c.maxRetries, c.timeout, c instanceof Anthropic]; }`,
    );
    expect(() => m.spend()).toThrow(m.BudgetExceeded);
    expect(() => m.spend()).toThrow("over by $0.10");
    let limited: unknown;
    try {
      m.rateLimited();
    } catch (error) {
      limited = error;
    }
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect((limited as InstanceType<typeof Anthropic.RateLimitError>).status).toBe(429);
    const planted = new TypeError("the tool's own bug");
    await expect(m.rethrow(() => Promise.reject(planted))).rejects.toBe(planted);
    const client = new Anthropic({ baseURL: "http://127.0.0.1:9/v1", apiKey: "k", maxRetries: 4, timeout: 1234 });
    expect(m.configured(client)).toEqual(["http://127.0.0.1:9/v1", 4, 1234, true]);
  });

  test("a method is looked up when it is called: one the learner's code swaps in is the one that runs, and it keeps its identity", async () => {
    const m = await learner(
      "methods",
      `export class Greeter { greet(name: string) { return "hello " + name; } shout() { this.greet = (name: string) => "HEY " + name; } }`,
    );
    const greeter = new m.Greeter();
    expect(greeter.greet("Ada")).toBe("hello Ada");
    expect(greeter.greet).toBe(greeter.greet);
    greeter.shout();
    expect(greeter.greet("Ada")).toBe("HEY Ada");
    expect(greeter.greet.call(greeter, "Bo")).toBe("HEY Bo");
    const other = new m.Greeter();
    expect(greeter.greet.call(other, "Cy"), "called on another instance, it is the method read from this one").toBe("HEY Cy");
  });

  test("a test's frozen object crosses as a copy and comes back as itself; one that is not frozen is read where it lives", async () => {
    const m = await learner(
      "records",
      `export function look(tool: { name: string; run(x: number): number }) { return [tool.name, tool.run(2), Object.keys(tool), tool]; }
       export function watch(state: { count: number; bump(): void }) { return () => (state.bump(), state.count); }`,
    );
    const tool = Object.freeze({ name: "double", run: (x: number) => x * 2 });
    const [name, ran, keys, back] = m.look(tool);
    expect([name, ran, keys]).toEqual(["double", 4, ["name", "run"]]);
    expect(back, "the test's own object, not a copy of the copy").toBe(tool);
    const state = {
      count: 0,
      bump() {
        state.count += 10;
      },
    };
    const read = m.watch(state);
    state.count = 1;
    expect(read(), "the count the test set, then bumped by the test's own method").toBe(11);
  });

  test("a test's async function called many times at once settles each call with its own result, beside the test's promises", async () => {
    const m = await learner(
      "many",
      `export async function both(f: (i: number) => Promise<number>, promised: Promise<number>[]) {
         const called = Array.from({ length: 40 }, (_, i) => f(i));
         return [await Promise.all(called), await Promise.all(promised)];
       }`,
    );
    const promised = Array.from({ length: 40 }, (_, i) => Promise.resolve(-i));
    const [called, awaited] = await m.both(async (i: number) => i * 2, promised);
    expect(called).toEqual(Array.from({ length: 40 }, (_, i) => i * 2));
    expect(awaited).toEqual(Array.from({ length: 40 }, (_, i) => -i));
  });

  test("an AbortSignal crosses with its abort", async () => {
    const m = await learner(
      "signal",
      `export function watch(s: AbortSignal) { return new Promise((r) => s.addEventListener("abort", () => r(String(s.reason)))); }`,
    );
    const controller = new AbortController();
    const heard = m.watch(controller.signal);
    controller.abort("Stop pressed");
    expect(await heard).toBe("Stop pressed");
  });
});

describe("what the learner's realm shares with the test, and what it keeps as written", () => {
  test("an error's Headers arrive as Headers, an abort's DOMException as a DOMException", async () => {
    const m = await learner(
      "shapes",
      `export function limited() { const e = new Error("429"); (e as any).headers = new Headers({ "retry-after": "3" }); throw e; }
       export function aborted() { const c = new AbortController(); c.abort(); return c.signal.reason; }`,
    );
    let caught: { headers?: unknown } = {};
    try {
      m.limited();
    } catch (error) {
      caught = error as { headers?: unknown };
    }
    expect(caught.headers).toBeInstanceOf(Headers);
    expect((caught.headers as Headers).get("retry-after")).toBe("3");
    const reason = m.aborted();
    expect(reason).toBeInstanceOf(DOMException);
    expect(reason).toMatchObject({ name: "AbortError" });
  });

  test("a realm whose code never fetches never builds fetch's classes: its data, arrays and objects cross without them", async () => {
    const m = await learner(
      "no-fetch",
      `export function shapes() { return { list: [1, [2, 3]], when: new Date(0), note: "plain" }; }
       export class Box { value = 1; read() { return [this.value]; } }
       export const fetchBuilt = () => typeof Object.getOwnPropertyDescriptor(globalThis, "Headers")?.get !== "function";`,
    );
    expect(m.shapes()).toEqual({ list: [1, [2, 3]], when: new Date(0), note: "plain" });
    expect(new m.Box().read()).toEqual([1]);
    // Node builds Headers with fetch on first use, ~15 ms of a realm's start.
    expect(m.fetchBuilt()).toBe(false);
  });

  test("a test's stream is read through with for await, and a test's class instance's events reach a learner's listener", async () => {
    const m = await learner(
      "streams",
      `export async function collect(stream: AsyncIterable<string>) { const seen: string[] = []; for await (const part of stream) seen.push(part); return seen; }
       export async function listen(source: { on(event: string, f: (x: string) => void): void; done(): Promise<void> }) {
         const heard: string[] = []; source.on("text", (x) => heard.push(x)); await source.done(); return heard;
       }`,
    );
    async function* parts() {
      yield "message_start";
      yield "delta";
      yield "message_stop";
    }
    expect(await m.collect(parts())).toEqual(["message_start", "delta", "message_stop"]);
    class Emitter {
      private readonly listeners: Array<(x: string) => void> = [];
      on(_event: string, f: (x: string) => void) {
        this.listeners.push(f);
      }
      async done() {
        for (const word of ["one", "two"]) for (const f of this.listeners) await f(word);
      }
    }
    expect(await m.listen(new Emitter())).toEqual(["one", "two"]);
  });

  test("an object the test hands over, a function among its fields, spreads and enumerates as the object it is", async () => {
    const m = await learner(
      "spreads",
      `export function look(o: Record<string, unknown>) {
         const copy = { extra: 1, ...o };
         const entries = Object.entries(o).map(([k, v]) => [k, typeof v]);
         return [Object.keys(copy), entries, (copy.embed as (x: number) => number)(2)];
       }`,
    );
    expect(m.look({ model: "opus", embed: (x: number) => x * 21 })).toEqual([
      ["extra", "model", "embed"],
      [
        ["model", "string"],
        ["embed", "function"],
      ],
      42,
    ]);
  });

  test("what the learner's code prints is taken in order, stdout and stderr alike, and cut past the cap with a count", async () => {
    const m = await learner(
      "prints",
      `export function say(n: number) { for (let i = 1; i <= n; i++) console.log("line " + i); console.error("to stderr"); }
       export function flood(chars: number) { process.stdout.write("x".repeat(chars)); }`,
    );
    const realm = realms.at(-1)!;
    m.say(2);
    expect(await realm.takeOutput()).toBe("line 1\nline 2\nto stderr\n");
    expect(await realm.takeOutput()).toBe("");
    m.flood(OUTPUT_CAP + 123);
    expect(await realm.takeOutput()).toBe(`${"x".repeat(OUTPUT_CAP)}${outputCut(123)}`);
  });

  test("what the learner's code prints is kept for the test whose call set it off, across awaits and timers, however two tests interleave", async () => {
    const m = await learner(
      "prints-per-test",
      `export async function relay(name: string, reply: (name: string) => Promise<string>) {
         console.log(name + " asks");
         const heard = await reply(name);
         console.log(name + " heard " + heard);
         await new Promise((done) => setTimeout(() => { console.error(name + " later"); done(undefined); }, 0));
         return heard;
       }
       export function loud(text: string) { console.log(text); }`,
    );
    const realm = realms.at(-1)!;
    // Neither reply comes before both tests have asked, so their work interleaves in the realm.
    let asked = 0;
    let bothAsked!: () => void;
    const met = new Promise<void>((resolve) => (bothAsked = resolve));
    const reply = async (name: string) => {
      if (++asked === 2) bothAsked();
      await met;
      return name.toUpperCase();
    };
    realm.startTest(1);
    realm.startTest(2);
    m.loud("before any test");
    const [a, b] = await Promise.all([testContext.run(1, () => m.relay("a", reply)), testContext.run(2, () => m.relay("b", reply))]);
    expect([a, b]).toEqual(["A", "B"]);
    testContext.run(1, () => m.loud("a, once more"));
    expect(await realm.takeOutput(2)).toBe("before any test\nb asks\nb heard B\nb later\n");
    testContext.run(2, () => m.loud("b, after its output was taken"));
    testContext.run(3, () => m.loud("a test never started"));
    expect(await realm.takeOutput(1)).toBe("b, after its output was taken\na test never started\na asks\na heard A\na later\na, once more\n");
  });

  test("the realm has no clock of its own: performance.now and Date.now read the test's, as the test sets them", async () => {
    const m = await learner("clock", `export function read() { return [performance.now(), Date.now()]; }`);
    const { now } = performance;
    const dateNow = Date.now;
    performance.now = () => 1234.5;
    Date.now = () => 1_700_000_000_000;
    try {
      expect(m.read()).toEqual([1234.5, 1_700_000_000_000]);
    } finally {
      performance.now = now;
      Date.now = dateNow;
    }
  });

  test("settled() waits until what the test set off in the realm has run, callbacks into the test included", async () => {
    const m = await learner(
      "settle",
      `export function chain(step: (n: number) => void) { void Promise.resolve().then(() => step(1)).then(() => setImmediate(() => step(2))); }`,
    );
    const steps: number[] = [];
    m.chain((n: number) => steps.push(n));
    await realms.at(-1)!.settled();
    await realms.at(-1)!.settled();
    expect(steps).toEqual([1, 2]);
  });

  test("import.meta.url and a computed import() mean what they mean in the file; one reaching outside its folder is refused", async () => {
    writeFileSync(join(dir, "beside.txt"), "x");
    const m = await learner(
      "reach",
      `export const here = import.meta.url;
       export const name = import.meta.filename;
       export async function load(spec: string) { const m = await import(spec); return typeof m; }`,
    );
    expect(m.here).toBe(pathToFileURL(join(dir, "reach.ts")).href);
    expect(m.name).toBe(join(dir, "reach.ts"));
    expect(await m.load(["node", "path"].join(":"))).toBe("object");
    await expect(m.load(["..", "elsewhere.js"].join("/"))).rejects.toThrow('lab refused to load "../elsewhere.js": it is outside your file\'s folder.');
    await expect(m.load(["./beside", "txt"].join("."))).rejects.toThrow(
      'lab refused to load "./beside.txt": its name is computed as your code runs, and only files imported by a fixed path go with yours.',
    );
  });

  test("the bundle keeps statements with no visible effect: a module-level endless loop still never ends", async () => {
    writeFileSync(join(dir, "spins.ts"), "export const x = 1;\nwhile (true) {}\n");
    const bundle = await bundleLearner(join(dir, "spins.ts"), () => false);
    expect(bundle.code).toMatch(/while \(true\)/);
  });
});

describe("nothing of the test runner is in the learner's realm", () => {
  test("no vitest worker state, no global expect, no IPC to the pool", async () => {
    const m = await learner(
      "probe",
      `export function probe() { const g = globalThis as any; return [typeof g.__vitest_worker__, typeof g[Symbol.for("expect-global")], typeof process.send, typeof process.disconnect]; }`,
    );
    expect(m.probe()).toEqual(["undefined", "undefined", "undefined", "undefined"]);
  });

  test("process.exit(0) fails the call with a sentence that says so, and the test side lives on", async () => {
    const m = await learner("exits", `export function quit() { process.exit(0); }`);
    expect(() => m.quit()).toThrow(REALM_MESSAGES.exited(0));
    expect(() => m.quit()).toThrow(REALM_MESSAGES.exited(0));
  });

  test("a sync endless loop is stopped from outside at the call limit", async () => {
    // A limit of 1 s: the loop burns a core until it is stopped (the default's own sentence is runner.test.ts's).
    const limitMs = 1_000;
    process.env[CALL_LIMIT_ENV] = String(limitMs);
    const m = await learner("loops", `export function spin() { for (;;) {} }`).finally(() => delete process.env[CALL_LIMIT_ENV]);
    const limit = (limitMs / 1000).toFixed(1);
    expect(() => m.spin()).toThrow(`Your code was stopped: it kept running for more than ${limit} s without returning`);
  });

  test("an async method of the learner's object is not waited for; one that never lets go is stopped at the call limit all the same", async () => {
    const limitMs = 1_500;
    process.env[CALL_LIMIT_ENV] = String(limitMs);
    const m = await learner(
      "later",
      `export class Slow { async first(note: (s: string) => void) { note("began"); return 1; } async spin() { for (;;) {} } }`,
    ).finally(() => delete process.env[CALL_LIMIT_ENV]);
    const slow = new m.Slow();
    const notes: string[] = [];
    const first = slow.first((s: string) => notes.push(s));
    expect(notes, "the method's first steps run after the test lets go of its thread").toEqual([]);
    expect(await first).toBe(1);
    expect(notes).toEqual(["began"]);

    const started = performance.now();
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 100);
    await expect(slow.spin()).rejects.toThrow(`Your code was stopped: it kept running for more than ${(limitMs / 1000).toFixed(1)} s without returning`);
    clearInterval(ticking);
    expect(performance.now() - started).toBeGreaterThanOrEqual(limitMs);
    expect(ticks, "the test's side ran on while it waited").toBeGreaterThanOrEqual(limitMs / 100 / 2);
  });

  test("an import outside the learner's folder is refused before anything runs", async () => {
    writeFileSync(join(dir, "refused.ts"), `import x from "../elsewhere.ts"; export const y = x;`);
    await expect(bundleLearner(join(dir, "refused.ts"), () => false)).rejects.toThrow(
      'lab refused to load "../elsewhere.ts": it is outside your file\'s folder.',
    );
  });
});
