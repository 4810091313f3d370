// node bench/one-realm.mjs DIR — writes to DIR a copy of this checkout's build whose hidden tests
// load the learner's module in their own realm, as the lab did before the boundary: the same
// tests, the same runner and the same exercises, minus the learner's thread and its membrane.
// For side-by-side benches only (npm run bench:screen -- --against DIR): the copy has no walls
// between a learner's code and its verdict, so it is never a lab to run anyone's code in.
//
// Why: a checkout from before the boundary also has fewer and other hidden tests (exercise 11
// had 22, now 30), so beside it a ratio mixes the boundary's cost with the tests' growth.
// Beside this copy, what differs is the boundary alone.
import { cpSync, existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { BenchUsageError, checkoutRoot, runBench, THIS_CHECKOUT } from "./side-by-side.mjs";

const LAB_IMPL = join("dist", "checker", "realm", "lab-impl.js");
const OPEN_REALM = 'import { openRealm } from "./host.js";';
// The bundle imported here, beside the tests; its exports handed to them as they are.
const IN_THIS_REALM = `const openRealm = async (bundle) => {
  const module = await import(\`data:text/javascript;base64,\${Buffer.from(bundle.code).toString("base64")}\`);
  return { exports: { ...module }, settled: async () => {}, startTest() {}, async takeOutput() { return ""; }, async close() {} };
};`;
const LEFT_OUT = new Set([".git", "node_modules"]);

export const ONE_REALM_MESSAGES = {
  usage: "Usage: node bench/one-realm.mjs DIR (a folder that does not exist yet, outside this checkout).",
  exists: (dir) => `${dir} already exists: name a new folder, so nothing of yours is overwritten.`,
  inside: (dir) => `${dir} is inside this checkout: name a folder outside it.`,
  changed: (file) => `${file} no longer opens the realm with \`${OPEN_REALM}\`: update bench/one-realm.mjs to match.`,
};

await runBench(async () => {
  const [target] = process.argv.slice(2);
  if (!target) throw new BenchUsageError(ONE_REALM_MESSAGES.usage);
  const root = checkoutRoot(THIS_CHECKOUT);
  const dir = resolve(target);
  if (existsSync(dir)) throw new BenchUsageError(ONE_REALM_MESSAGES.exists(dir));
  if (!relative(root, dir).startsWith("..")) throw new BenchUsageError(ONE_REALM_MESSAGES.inside(dir));

  const source = readFileSync(join(root, LAB_IMPL), "utf8");
  if (!source.includes(OPEN_REALM)) throw new BenchUsageError(ONE_REALM_MESSAGES.changed(LAB_IMPL));
  cpSync(root, dir, { recursive: true, filter: (from) => !LEFT_OUT.has(relative(root, from)) });
  try {
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    writeFileSync(join(dir, LAB_IMPL), source.replace(OPEN_REALM, IN_THIS_REALM));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  console.log(`${dir}: this build, with each hidden test and the learner's module in one realm (for benches only).`);
});
