/**
 * Which test a piece of work belongs to, when a file's tests run side by side: kept the way
 * Node keeps an async context, so work a test sets off (awaits, timers, callbacks) stays that
 * test's. One per thread: the test's side runs each such test in it (lab-impl.ts), and the
 * membrane carries the test across with every call (see TestContext below). Tracking
 * an async context costs every promise a little, so it is only switched on by the first test
 * that runs beside others: with one test at a time, none is run in it, and the test running
 * now is the only candidate.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The test a piece of work belongs to, on each side of the boundary: a call carries the test
 * its caller was working for, and runs as that test's work on the other side, so what it prints
 * there, at once or later, is that test's, even while other tests of the file run beside it.
 */
export interface TestContext {
  current(): number | undefined;
  /** Runs `fn` as the work of test `test`, or of no test. */
  run<T>(test: number | undefined, fn: () => T): T;
}

const storage = new AsyncLocalStorage<number>();
/** The vitest task of each test entered, while it runs. */
const tasks = new Map<number, object>();

export const testContext: TestContext & { runTest(test: number, task: object, fn: () => Promise<void>): Promise<void> } = {
  current: () => storage.getStore(),
  run: (test, fn) => (test === undefined ? storage.exit(fn) : storage.run(test, fn)),
  /** Runs a test (its hooks, its body: `fn`) as test `test`'s work: everything it sets off is too. */
  async runTest(test, task, fn) {
    tasks.set(test, task);
    try {
      await storage.run(test, fn);
    } finally {
      tasks.delete(test);
    }
  },
};

/**
 * The task of the test whose work is running now, if it was entered (it runs beside others):
 * vitest's own "current test" is the one that started last, which is another test's when they
 * run side by side.
 */
export function enteredTask<T extends object>(): T | undefined {
  const test = storage.getStore();
  return test === undefined ? undefined : (tasks.get(test) as T | undefined);
}
