/**
 * The learner's realm: a worker thread that holds the learner's bundled module, the SDK and
 * Node's built-ins, and nothing of the test runner. Its one way out is the membrane's port.
 * It starts ahead of the learner's code (see host.ts), perhaps rehearsing, and loads the code
 * when it arrives: from then on, only the learner's code and the SDK run here.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type Locals, Membrane, REAL_CLOCK } from "./membrane.js";
import { fileURLToPath } from "node:url";
import { refuseForeignSignals, SIGNALS_ENV } from "../run/walls/signal-wall.js";
import { ImportRefused, judgeSpecifier, SDK_SPECIFIER } from "../run/walls/import-wall.js";
import { REALM_IMPORT } from "./runtime-reach.js";
import { type RehearsalUrls, rehearseUntil } from "../run/workers/rehearsal.js";
import { testContext } from "./test-context.js";
import { offerPractice, type PracticeChannel } from "./practice.js";

if (process.env[SIGNALS_ENV] === "own") refuseForeignSignals();
// The spare's --expose-gc is for the lab (young-garbage.ts took it on import), not for the learner's code
// (V8 makes that global non-configurable: it cannot be deleted, only emptied).
(globalThis as { gc?: unknown }).gc = undefined;

type Served = { status: number; statusText: string; headers: [string, string][]; body: Uint8Array };

/** A fetch's request as plain data; the SDK's own (a URL string, a string body) without building a Request. */
async function fetchArgs(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): Promise<unknown[]> {
  const signal = init?.signal ?? undefined;
  if (typeof input === "string" && (init?.body === undefined || init.body === null || typeof init.body === "string")) {
    return [input, { method: init?.method ?? "GET", headers: [...new Headers(init?.headers)], body: init?.body ?? undefined, signal }];
  }
  const request = new Request(input, init);
  const body = init?.body === undefined || init.body === null ? undefined : await request.text();
  return [request.url, { method: request.method, headers: [...request.headers], body, signal }];
}

/**
 * A client configured with the test's own fetch sends through it, without waiting for the test's
 * side to start it (the SDK awaits the response anyway); the response comes back as data.
 */
const wrapFetch: Locals["wrapFetch"] = (remote) => async (input, init) => {
  const served = (await membrane.callLater(remote, await fetchArgs(input, init))) as Served;
  return new Response(served.status === 204 || served.status === 304 ? null : served.body, {
    status: served.status,
    statusText: served.statusText,
    headers: served.headers,
  });
};

const { port, bells, sdkUrl, clock, rehearsal, practice } = workerData as {
  port: import("node:worker_threads").MessagePort;
  bells: Int32Array;
  sdkUrl: string;
  clock: unknown;
  /** A provider to rehearse against while the learner's code has not arrived (see rehearsal.ts). */
  rehearsal: RehearsalUrls | null;
  /** A channel of its own to practise the membrane on while waiting (see practice.ts). */
  practice: PracticeChannel | null;
};

// The very SDK the learner's bundle imports, so a client built here passes its instanceof checks.
const Anthropic = ((await import(sdkUrl)) as { default: unknown }).default;
const membrane = new Membrane(port, bells, 1, { sdk: Anthropic as unknown as Locals["sdk"], wrapFetch, tests: testContext }, Number.POSITIVE_INFINITY);
process.on("exit", (exitCode) => membrane.post({ k: "exit", code: exitCode }));

const arrived = new Promise<{ code: string; root: string }>((resolve) => parentPort!.once("message", resolve));
let practising: { done(): void } | null = null;
if (rehearsal) {
  const halt = new AbortController();
  void arrived.then(() => halt.abort());
  await rehearseUntil(Anthropic as Parameters<typeof rehearseUntil>[0], rehearsal, halt.signal);
  if (practice && !halt.signal.aborted) practising = offerPractice(practice, { sdk: Anthropic as unknown as Locals["sdk"], wrapFetch, tests: testContext });
}
const { code, root } = await arrived;
practising?.done();

/** A computed import(…) in the learner's code (see runtime-reach.ts), judged as the bundler judged the fixed ones. */
function realmImport(spec: unknown, from: string): Promise<unknown> {
  const text = String(spec);
  const verdict = judgeSpecifier(text, fileURLToPath(from), root, (s) => SDK_SPECIFIER.test(s));
  if (verdict.kind === "refuse") return Promise.reject(new ImportRefused(text, verdict.reason));
  if (verdict.kind === "pass") return import(sdkUrl);
  if (verdict.kind === "builtin") return import(text);
  return Promise.reject(new ImportRefused(text, "computed"));
}
Object.defineProperty(globalThis, REALM_IMPORT, { value: realmImport });

// What the learner's code prints travels on the membrane's port, in order with its calls' results,
// with the test whose call set off the code that printed it (see host.ts).
for (const stream of [process.stdout, process.stderr]) {
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
    membrane.post({ k: "output", text, test: membrane.testNow() });
    const done = rest.find((arg): arg is () => void => typeof arg === "function");
    done?.();
    return true;
  }) as typeof stream.write;
}

// No clock of its own: the test's, read through, or, while the test's is the real one, the
// same time read here on the test's time origin (see host.ts).
const testClock = membrane.decode(clock) as { now(): number; dateNow(): number; timeOrigin: number };
const ownNow = performance.now.bind(performance);
const ownDateNow = Date.now;
const originShift = performance.timeOrigin - testClock.timeOrigin;
const realClock = () => Atomics.load(bells, REAL_CLOCK) === 1;
performance.now = () => (realClock() ? ownNow() + originShift : testClock.now());
Date.now = () => (realClock() ? ownDateNow() : testClock.dateNow());

try {
  const module = (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)) as Record<string, unknown>;
  const exports: Record<string, unknown> = {};
  for (const name of Object.keys(module)) exports[name] = membrane.encode(module[name]);
  parentPort!.postMessage({ ok: true, value: exports });
} catch (error) {
  parentPort!.postMessage({ ok: false, value: membrane.encode(error) });
}
