/**
 * The membrane's practice while a spare realm waits (checker/realm/practice.ts): a real worker
 * thread offers the practice exports, the test's thread drives the rounds through the real
 * membranes and SDKs against a real provider, and a save (the realm's end closing) stops it.
 */
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, expect, test } from "vitest";
import { learnerRealms } from "./learner-realms.js";
import { PRACTICE_ROUNDS, PracticeHost } from "../../../dist/checker/realm/practice.js";
import { testContext } from "../../../dist/checker/realm/test-context.js";
import { startProvider } from "../../../dist/checker/testing/index.js";

const dist = (path: string) => pathToFileURL(join(import.meta.dirname, "../../../dist", path)).href;
const provider = await startProvider();
afterAll(() => provider.close());

/** The realm's side, as entry.ts runs it: offers the practice until told the learner's code arrived. */
const REALM_SIDE = `
const { workerData, parentPort } = require("node:worker_threads");
(async () => {
  const { offerPractice } = await import(${JSON.stringify(dist("checker/realm/practice.js"))});
  const { testContext } = await import(${JSON.stringify(dist("checker/realm/test-context.js"))});
  const Anthropic = (await import(${JSON.stringify(import.meta.resolve("@anthropic-ai/sdk"))})).default;
  const practising = offerPractice(workerData, { sdk: Anthropic, tests: testContext });
  parentPort.once("message", () => {
    practising.done();
    parentPort.postMessage("done");
  });
})();
`;

function practise() {
  const before = provider.requests.at(-1)?.seq ?? 0;
  const host = new PracticeHost({ sdk: Anthropic as never, tests: testContext }, provider.url("weather"), 5_000);
  const realm = new Worker(REALM_SIDE, { eval: true, workerData: host.realmSide, transferList: [host.realmSide.port] });
  const sent = () => provider.requests.filter((r) => r.seq > before && r.apiKey?.startsWith("practice-"));
  return { host, realm, sent };
}

test("a waiting realm practises every round through its own SDK, on the wire, then stops when its code arrives", async () => {
  const { host, realm, sent } = practise();
  try {
    expect(await host.finished).toBe(PRACTICE_ROUNDS);
    // Each round's client crossed as its options and was rebuilt over there: the requests came from the realm's SDK.
    expect(new Set(sent().map((r) => r.apiKey)).size).toBe(PRACTICE_ROUNDS);
    expect(sent().every((r) => r.status === 200)).toBe(true);
    realm.postMessage("arrived");
    expect((await once(realm, "message"))[0]).toBe("done");
  } finally {
    await realm.terminate();
  }
});

test("a save in the middle of the practice stops it: no round starts after, and nothing waits on the realm", async () => {
  const { host, realm, sent } = practise();
  try {
    // The second round's client on the wire: the first round is over.
    await expect.poll(() => sent().some((r) => r.apiKey === "practice-1"), { interval: 5, timeout: 10_000 }).toBe(true);
    // The host stops on its own (a save calls load()), before the realm has heard of any code.
    host.stop();
    const rounds = await host.finished;
    expect(rounds).toBeGreaterThan(0);
    expect(rounds).toBeLessThan(PRACTICE_ROUNDS);
    const after = sent().length;
    realm.postMessage("arrived");
    expect((await once(realm, "message"))[0]).toBe("done");
    expect(sent().length, "requests sent after the practice stopped").toBe(after);
  } finally {
    await realm.terminate();
  }
});

const { dir } = learnerRealms("practice-gc");

test("the spare's --expose-gc is not the learner's: in the realm, gc is undefined", () => {
  const learnerFile = join(dir, "sees-gc.ts");
  writeFileSync(learnerFile, "export const gcType = () => typeof (globalThis as { gc?: unknown }).gc;\n");
  const script = join(dir, "open.mjs");
  writeFileSync(
    script,
    `const { bundleLearner } = await import(${JSON.stringify(dist("checker/realm/bundle.js"))});
     const { openRealm } = await import(${JSON.stringify(dist("checker/realm/host.js"))});
     const realm = await openRealm(await bundleLearner(${JSON.stringify(learnerFile)}, () => false));
     console.log(typeof globalThis.gc, realm.exports.gcType());
     await realm.close();
     process.exit(0);`,
  );
  const run = spawnSync(process.execPath, ["--expose-gc", script], { encoding: "utf8", timeout: 30_000 });
  expect(run.stderr).toBe("");
  expect(run.stdout.trim()).toBe("function undefined");
});
