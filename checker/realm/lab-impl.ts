/**
 * What `lab:impl` is on the trusted side of a test run: the module binding-plugin.ts writes
 * for each hidden test imports the learner's bundle through here, and gets back the
 * learner's exports as handles into the learner's realm. The realm ends with the test file.
 * Per test, two texts become its meta, which the runner reads into the test's outcome
 * (checker/run/outcome.ts): what the learner's code printed (`labOutput`, from its realm)
 * and what the hidden test itself printed on purpose (`labReport`, from this thread), kept
 * for failing tests too, as they explain the failure. A test that runs beside others
 * (describe.concurrent) is entered in the thread's test context as it starts, so both texts
 * stay its own; one that runs alone owns whatever is printed while it runs.
 */
import { openRealm, type RealmBundle } from "./host.js";
import { OUTPUT_META, REPORT_META } from "./messages.js";
import { TestReport } from "./test-report.js";
import { testContext } from "./test-context.js";

interface TestHookContext {
  task: { meta: Record<string, unknown>; concurrent?: boolean };
}

interface Hooks {
  aroundEach(fn: (runTest: () => Promise<void>, context: TestHookContext) => Promise<void>): void;
  afterAll(fn: () => Promise<void>): void;
  afterEach(fn: (context: TestHookContext) => Promise<void>): void;
}

export async function openLabImpl(bundle: RealmBundle, hooks: Hooks): Promise<Record<string, unknown>> {
  const realm = await openRealm(bundle);
  let started = 0;
  /** Each running test's number, by its task. */
  const numbers = new WeakMap<object, number>();
  /** The test that started last: while tests run one at a time, the one running. */
  let latest: number | undefined;
  const report = new TestReport(globalThis.console, () => testContext.current() ?? latest);
  // Registered before the test file's own hooks: this aroundEach wraps them all, and this afterEach runs last.
  hooks.aroundEach(async (runTest, { task }) => {
    const test = ++started;
    latest = test;
    numbers.set(task, test);
    realm.startTest(test);
    report.start(test);
    if (task.concurrent) await testContext.runTest(test, task, runTest);
    else await runTest();
  });
  hooks.afterEach(async ({ task }) => {
    const test = numbers.get(task);
    try {
      const printed = await realm.takeOutput(test);
      if (printed !== "") task.meta[OUTPUT_META] = printed;
    } finally {
      // Taken once what the test set off has run, and whatever became of the realm.
      const said = test === undefined ? "" : report.take(test);
      if (said !== "") task.meta[REPORT_META] = said;
    }
  });
  hooks.afterAll(() => realm.close());
  return realm.exports;
}
