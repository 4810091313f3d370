/**
 * What `lab:impl` is on the trusted side of a test run: the module binding-plugin.ts writes
 * for each hidden test imports the learner's bundle through here, and gets back the
 * learner's exports as handles into the learner's realm. The realm ends with the test file.
 * Per test, two texts become its meta, which the runner reads into the test's outcome
 * (checker/run/outcome.ts): what the learner's code printed (`labOutput`, from its realm)
 * and what the hidden test itself printed on purpose (`labReport`, from this thread), kept
 * for failing tests too, as they explain the failure.
 */
import { openRealm, type RealmBundle } from "./host.js";
import { OUTPUT_META, REPORT_META } from "./messages.js";
import { TestReport } from "./test-report.js";

interface Hooks {
  beforeEach(fn: () => void): void;
  afterAll(fn: () => Promise<void>): void;
  afterEach(fn: (context: { task: { meta: Record<string, unknown> } }) => Promise<void>): void;
}

export async function openLabImpl(bundle: RealmBundle, hooks: Hooks): Promise<Record<string, unknown>> {
  const realm = await openRealm(bundle);
  const report = new TestReport();
  // Registered before the test file's own hooks: this beforeEach runs first and this afterEach last.
  hooks.beforeEach(() => report.start());
  hooks.afterEach(async ({ task }) => {
    try {
      const printed = await realm.takeOutput();
      if (printed !== "") task.meta[OUTPUT_META] = printed;
    } finally {
      // Taken once what the test set off has run, and whatever became of the realm.
      const said = report.take();
      if (said !== "") task.meta[REPORT_META] = said;
    }
  });
  hooks.afterAll(() => realm.close());
  return realm.exports;
}
