/**
 * What `lab:impl` is on the trusted side of a test run: the module binding-plugin.ts writes
 * for each hidden test imports the learner's bundle through here, and gets back the
 * learner's exports as handles into the learner's realm. The realm ends with the test file.
 * What the learner's code printed during a test is that test's `labOutput` meta, which the
 * runner reads into the test's outcome (checker/run/outcome.ts).
 */
import { openRealm, type RealmBundle } from "./host.js";
import { OUTPUT_META } from "./messages.js";

interface Hooks {
  afterAll(fn: () => Promise<void>): void;
  afterEach(fn: (context: { task: { meta: Record<string, unknown> } }) => Promise<void>): void;
}

export async function openLabImpl(bundle: RealmBundle, hooks: Hooks): Promise<Record<string, unknown>> {
  const realm = await openRealm(bundle);
  hooks.afterEach(async ({ task }) => {
    const printed = await realm.takeOutput();
    if (printed !== "") task.meta[OUTPUT_META] = printed;
  });
  hooks.afterAll(() => realm.close());
  return realm.exports;
}
