// npm run bench:realm — what the boundary between a hidden test and the learner's realm costs:
// a realm opened cold, called once and closed (wall and this process's CPU, the thread's
// included), the learner's file bundled, and each kind of crossing, per call, on a warm realm.
// Every figure is a mean over many; a busy machine stretches them all, so the load is printed.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleLearner } from "../dist/checker/realm/bundle.js";
import { openRealm } from "../dist/checker/realm/host.js";
import { loadLine, loadNow } from "./side-by-side.mjs";

const REALMS = 10;
const BUNDLES = 10;
const CALLS = 3_000;
const WARM_UP = 200;

const loadBefore = loadNow();
const dir = mkdtempSync(join(tmpdir(), "lab-bench-realm-"));
const file = join(dir, "learner.ts");
writeFileSync(
  file,
  `import Anthropic from "@anthropic-ai/sdk";
export const sdk = Anthropic;
export function same(x: number) { return x; }
export class Cache {
  private threshold: number; private embed: (q: string) => Promise<number[]>;
  constructor(o: { threshold: number; embed: (q: string) => Promise<number[]> }) { this.threshold = o.threshold; this.embed = o.embed; }
  size(x: number) { return x + this.threshold; }
  async put(q: string) { return (await this.embed(q)).length; }
}
`,
);

/** Mean wall and CPU (this process, every thread) of `times` runs of `step`, in ms. */
async function measure(times, step) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < times; i++) await step(i);
  const used = process.cpuUsage(cpu);
  return { wall: (performance.now() - started) / times, cpu: (used.user + used.system) / 1000 / times };
}
const ms = (x) => `${x.toFixed(1)} ms`;
const us = (x) => `${(x * 1000).toFixed(1)} µs`;

const noDetector = () => false;
await bundleLearner(file, noDetector);
const bundling = await measure(BUNDLES, () => bundleLearner(file, noDetector));
const bundle = await bundleLearner(file, noDetector);
const realms = await measure(REALMS, async () => {
  const realm = await openRealm(bundle);
  /** @type {any} */ (realm.exports).same(1);
  await realm.close();
});

const realm = await openRealm(bundle);
const { same, Cache } = /** @type {Record<string, any>} */ (realm.exports);
const embed = async (q) => [q.length];
const cache = new Cache({ threshold: 1, embed });
const frozen = Object.freeze({ threshold: 1, embed });
/** @type {Array<[string, () => unknown]>} */
const crossings = [
  ["a sync export, called", () => same(1)],
  ["a method of the learner's object", () => cache.size(1)],
  ["new, with options read in the constructor", () => new Cache({ threshold: 1, embed })],
  ["new, with frozen options (a copy)", () => new Cache(frozen)],
  ["an async method calling the test's async function", () => cache.put("q")],
];
console.log(`the learner's realm: a worker thread, reached through checker/realm/membrane.ts`);
console.log(`  bundle the learner's file            ${ms(bundling.wall)} wall, ${ms(bundling.cpu)} CPU (mean of ${BUNDLES})`);
console.log(`  open a realm cold, call, close       ${ms(realms.wall)} wall, ${ms(realms.cpu)} CPU (mean of ${REALMS})`);
for (const [what, step] of crossings) {
  await measure(WARM_UP, step);
  const { wall } = await measure(CALLS, step);
  console.log(`  ${what.padEnd(50)} ${us(wall)} a call (mean of ${CALLS})`);
}
await realm.close();
rmSync(dir, { recursive: true, force: true });
console.log(`  ${loadLine(loadBefore, loadNow())}`);
