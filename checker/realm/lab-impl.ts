/**
 * What `lab:impl` is on the trusted side of a test run: the module binding-plugin.ts writes
 * for each hidden test imports the learner's bundle through here, and gets back the
 * learner's exports as handles into the learner's realm. The realm ends with the test file.
 */
import { openRealm, type RealmBundle } from "./host.js";

export async function openLabImpl(bundle: RealmBundle, afterAll: (fn: () => Promise<void>) => void): Promise<Record<string, unknown>> {
  const realm = await openRealm(bundle);
  afterAll(() => realm.close());
  return realm.exports;
}
