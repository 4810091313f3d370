import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import type { Exercise } from "../../../checker/model/exercises.js";
import type { RunListener, RunResult } from "../../../checker/model/result.js";
import type { FileWatchHandlers, WatchFile } from "../../../src/watch/file-watcher.js";
import { SAVE_DEBOUNCE_MS } from "../../../src/watch/run-scheduler.js";
import { SILENCE_CHECK_MS, statFile } from "../../../src/watch/silence-check.js";
import type { TypeCheck, TypeErrorReport } from "../../../src/typecheck/type-checker.js";
import { WatchSession, type SessionEvent } from "../../../src/watch/watch-session.js";
import { tempDir } from "../../support/temp-dir.js";

const exercise = { id: "01-adder", number: 1 } as Exercise;
const result = (passed: number): RunResult => ({
  exercise: "01-adder",
  file: "f.ts",
  status: "passed",
  tests: [],
  passed,
  failed: 0,
  total: passed,
  error: null,
  ms: 1,
});

/** A runner whose runs the test finishes by hand, counting overlaps. */
function fakeRunner() {
  const pending: { listener: RunListener | undefined; done: (r: RunResult) => void }[] = [];
  let runs = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  return {
    run(_request: unknown, listener?: RunListener) {
      runs++;
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      listener?.({ type: "run-started", exercise: "01-adder", file: "f.ts" });
      return new Promise<RunResult>((done) => pending.push({ listener, done }));
    },
    aborts: 0,
    abort() {
      this.aborts++;
    },
    finish(passed = 1) {
      const run = pending.shift()!;
      inFlight--;
      run.listener?.({ type: "run-finished", result: result(passed) });
      run.done(result(passed));
    },
    get runs() {
      return runs;
    },
    get maxInFlight() {
      return maxInFlight;
    },
  };
}

/** The fake runner that can also stop its run in flight, as the real one's stopRun does. */
function stoppableRunner() {
  const runner = fakeRunner();
  return Object.assign(runner, {
    stops: 0,
    stopRun() {
      this.stops++;
      runner.finish(0); // the killed run still resolves, with what it had
    },
  });
}

function fakeWatch() {
  let handlers: FileWatchHandlers | null = null;
  let closed = false;
  const watchFile: WatchFile = async (_file, _opts, h) => {
    handlers = h;
    return { close: async () => void (closed = true) };
  };
  return { watchFile, save: () => handlers!.onSave(), handlers: () => handlers!, closed: () => closed };
}

async function started(
  options: { stat?: (file: string) => { mtimeMs: number; size: number } | null; fingerprint?: (file: string) => string | null; file?: string } = {},
) {
  const runner = fakeRunner();
  const watch = fakeWatch();
  const file = options.file ?? "f.ts";
  const stat = options.stat ?? (() => null);
  const fingerprint = options.fingerprint ?? ((f: string) => (stat(f) === null ? null : JSON.stringify(stat(f))));
  const session = await WatchSession.start({ runner, exercise, file, poll: false, watchFile: watch.watchFile, stat, fingerprint });
  const events: SessionEvent[] = [];
  session.subscribe((e) => events.push(e));
  return { runner, watch, session, events };
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

test("a save made while a run is in flight is run next, never alongside it", async () => {
  const { runner, watch, session, events } = await started();
  session.rerun();
  watch.save();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 3);
  expect(runner.runs).toBe(1);
  runner.finish();
  await vi.advanceTimersByTimeAsync(0);
  expect(runner.runs).toBe(2);
  runner.finish();
  await vi.advanceTimersByTimeAsync(0);
  expect(runner.maxInFlight).toBe(1);
  expect(events.map((e) => e.type)).toEqual(["run-started", "save-seen", "run-finished", "run-started", "run-finished"]);
  await session.close();
});

test("ten saves within 100 ms cause one run", async () => {
  const { runner, watch, session } = await started();
  for (let i = 0; i < 10; i++) {
    watch.save();
    await vi.advanceTimersByTimeAsync(10);
  }
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS);
  expect(runner.runs).toBe(1);
  runner.finish();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 4);
  expect(runner.runs).toBe(1);
  await session.close();
});

test("ten saves within 100 ms during a run cause exactly one more run", async () => {
  const { runner, watch, session } = await started();
  session.rerun();
  for (let i = 0; i < 10; i++) {
    watch.save();
    await vi.advanceTimersByTimeAsync(10);
  }
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS);
  runner.finish();
  await vi.advanceTimersByTimeAsync(0);
  expect(runner.runs).toBe(2);
  runner.finish();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 4);
  expect(runner.runs).toBe(2);
  await session.close();
});

test("a watcher that stays silent is reported, and the missed save still runs", async () => {
  let stamp = { mtimeMs: 1, size: 1 };
  const { runner, session, events } = await started({ stat: () => stamp });
  stamp = { mtimeMs: 2, size: 2 };
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS * 2);
  expect(events.map((e) => e.type)).toEqual(["watcher-silent", "save-seen", "run-started"]);
  expect(runner.runs).toBe(1);
  runner.finish();
  await session.close();
});

test("once the watcher reports a save again after a silence, the session says it is heard, once", async () => {
  let content = "v1";
  const { runner, watch, session, events } = await started({ fingerprint: () => content });
  content = "v2";
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS * 2);
  runner.finish();
  await vi.advanceTimersByTimeAsync(0);
  content = "v3";
  watch.save();
  watch.save();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 2);
  runner.finish();
  await vi.advanceTimersByTimeAsync(0);
  expect(events.filter((e) => e.type.startsWith("watcher-")).map((e) => e.type)).toEqual(["watcher-silent", "watcher-heard"]);
  await session.close();
});

test("a touch (the time moves, the content does not) owes no event: no silence notice", async () => {
  let stamp = { mtimeMs: 1, size: 1 };
  const { runner, session, events } = await started({ stat: () => stamp, fingerprint: () => "the same text" });
  stamp = { mtimeMs: 2, size: 1 };
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS * 4);
  expect(events).toEqual([]);
  expect(runner.runs).toBe(0);
  await session.close();
});

test("a write that lands just after the watcher's event is read by the run, not taken for a silent watcher", async () => {
  // cp and many editors truncate, then write: the event can come between the two.
  let stamp = { mtimeMs: 1, size: 0 };
  const { runner, watch, session, events } = await started({ stat: () => stamp });
  watch.save();
  stamp = { mtimeMs: 2, size: 500 };
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS);
  runner.finish();
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS * 3);
  expect(events.map((e) => e.type)).toEqual(["save-seen", "run-started", "run-finished"]);
  expect(runner.runs).toBe(1);
  await session.close();
});

test("a deleted file and a failing watcher are events, not crashes", async () => {
  const { watch, session, events } = await started();
  watch.handlers().onMissing();
  watch.handlers().onError(new Error("EMFILE"));
  expect(events).toEqual([
    { type: "file-missing", file: "f.ts" },
    { type: "watch-error", message: "EMFILE" },
  ]);
  await session.close();
});

test("a runner that rejects becomes a run-crashed event, and a missing file a file-missing event", async () => {
  const watch = fakeWatch();
  const errors = [Object.assign(new Error("gone"), { code: "ENOENT" }), new Error("vitest fell over")];
  const runner = { run: async () => Promise.reject(errors.shift()) };
  const session = await WatchSession.start({ runner, exercise, file: "f.ts", poll: true, watchFile: watch.watchFile });
  const events: SessionEvent[] = [];
  session.subscribe((e) => events.push(e));
  session.rerun();
  await vi.advanceTimersByTimeAsync(0);
  session.rerun();
  await vi.advanceTimersByTimeAsync(0);
  expect(events).toEqual([
    { type: "file-missing", file: "f.ts" },
    { type: "run-crashed", message: "vitest fell over" },
  ]);
  await session.close();
});

test("close stops the watcher, waits for the run in flight, and ignores later saves", async () => {
  const { runner, watch, session } = await started();
  session.rerun();
  let closed = false;
  const closing = session.close().then(() => (closed = true));
  watch.save();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 2);
  expect(watch.closed()).toBe(true);
  expect(closed).toBe(false);
  runner.finish();
  await closing;
  expect(runner.runs).toBe(1);
});

test("close with stopRun kills the run in flight at once; plain close lets it finish", async () => {
  const { runner, session } = await started();
  session.rerun();
  const closing = session.close({ stopRun: true });
  expect(runner.aborts).toBe(1);
  runner.finish(0);
  await closing;

  const other = await started();
  other.session.rerun();
  const plain = other.session.close();
  expect(other.runner.aborts).toBe(0);
  other.runner.finish();
  await plain;

  const idle = await started();
  await idle.session.close({ stopRun: true });
  expect(idle.runner.aborts).toBe(0); // nothing in flight, nothing to kill
});

test("a save the watcher never reported, made during a run, is run next all the same", async () => {
  const file = join(tempDir("session"), "01-adder.ts");
  writeFileSync(file, "export const v = 1;\n");
  const { runner, session } = await started({ file });
  session.rerun();
  await vi.advanceTimersByTimeAsync(0);
  writeFileSync(file, "export const v = 2;\n");
  runner.finish();
  await vi.advanceTimersByTimeAsync(0);
  expect(runner.runs).toBe(2);
  runner.finish();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 4);
  expect(runner.runs).toBe(2);
  await session.close();
});

test("the watcher's late report of a change the session already ran is no second run; a save after it still runs", async () => {
  const file = join(tempDir("session"), "01-adder.ts");
  writeFileSync(file, "export const v = 1;\n");
  const { runner, watch, session, events } = await started({ file, stat: statFile });
  session.rerun();
  await vi.advanceTimersByTimeAsync(0);
  writeFileSync(file, "export const v = 2;\n"); // saved as run 1 ends, before any event
  runner.finish();
  await vi.advanceTimersByTimeAsync(0);
  expect(runner.runs).toBe(2); // the session saw the bytes move and ran them
  watch.save(); // the watcher's event for that same save, late
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 4);
  runner.finish();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 4);
  expect(runner.runs).toBe(2);
  expect(events.filter((e) => e.type === "save-seen")).toEqual([]);
  writeFileSync(file, "export const v = 2;\n");
  utimesSync(file, new Date(), new Date(Date.now() + 5_000)); // a later write, past the clock's granularity
  watch.save(); // saving the same text again on purpose reruns, as always
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 4);
  expect(runner.runs).toBe(3);
  runner.finish();
  await session.close();
});

test("a write reported twice, during its run or after it, runs once; a new write runs", async () => {
  const file = join(tempDir("session"), "01-adder.ts");
  writeFileSync(file, "export const v = 1;\n");
  const { runner, watch, session } = await started({ file, stat: statFile });
  watch.save();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS);
  expect(runner.runs).toBe(1);
  watch.save(); // the same write, reported twice
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 4);
  runner.finish();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 4);
  expect(runner.runs).toBe(1);
  watch.save(); // the same write reported once more, after its run: still nothing new
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 4);
  expect(runner.runs).toBe(1);
  writeFileSync(file, "export const v = 3;\n"); // same size, maybe the same time: the bytes differ
  watch.save();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 4);
  expect(runner.runs).toBe(2);
  runner.finish();
  await session.close();
});

test("a save while a run is going stops that run at once, drops its results, and runs the new save next", async () => {
  const runner = stoppableRunner();
  const watch = fakeWatch();
  const session = await WatchSession.start({ runner, exercise, file: "f.ts", poll: false, watchFile: watch.watchFile, stat: () => null });
  const events: SessionEvent[] = [];
  session.subscribe((e) => events.push(e));
  session.rerun(); // a run that would hang until the time limit
  watch.save();
  expect(runner.stops).toBe(1); // at once, not after the debounce or the time limit
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 3);
  expect(runner.runs).toBe(2);
  runner.finish(3);
  await vi.advanceTimersByTimeAsync(0);
  expect(events.map((e) => e.type)).toEqual(["run-started", "save-seen", "run-stopping", "run-stopped", "run-started", "run-finished"]);
  expect(runner.maxInFlight).toBe(1);
  expect(runner.runs).toBe(2);
});

test("r during a run does not stop it: only a new save makes a run worthless", async () => {
  const runner = stoppableRunner();
  const watch = fakeWatch();
  const session = await WatchSession.start({ runner, exercise, file: "f.ts", poll: false, watchFile: watch.watchFile, stat: () => null });
  session.rerun();
  session.rerun();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 3);
  expect(runner.stops).toBe(0);
  runner.finish();
  await vi.advanceTimersByTimeAsync(0);
  expect(runner.runs).toBe(2);
  runner.finish();
});

test("deleting the file is an event the watcher saw: no false 'saves are not reaching lab' notice follows it", async () => {
  let stamp: { mtimeMs: number; size: number } | null = { mtimeMs: 1, size: 1 };
  const { runner, watch, session, events } = await started({ stat: () => stamp });
  stamp = null; // the learner deletes the file; the watcher reports it
  watch.handlers().onMissing();
  await vi.advanceTimersByTimeAsync(SILENCE_CHECK_MS * 3);
  expect(events).toEqual([{ type: "file-missing", file: "f.ts" }]);
  expect(runner.runs).toBe(0);
  await session.close();
});

/** A type checker that logs what the session asks of it; its checks are answered by hand. */
function loggingTypeCheck(log: string[]) {
  const answers: ((errors: TypeErrorReport[]) => void)[] = [];
  const typeCheck: TypeCheck = {
    check: () => (log.push("check"), new Promise((done) => answers.push(done))),
    pause: () => void log.push("pause"),
    resume: () => void log.push("resume"),
    close: async () => {},
  };
  return { typeCheck, answer: (errors: TypeErrorReport[] = []) => answers.shift()!(errors) };
}

test("the type checker is paused for every run, from the save to the run's results, and checks only the latest file once they are out", async () => {
  const runner = fakeRunner();
  const watch = fakeWatch();
  const log: string[] = [];
  const { typeCheck, answer } = loggingTypeCheck(log);
  const session = await WatchSession.start({ runner, exercise, file: "f.ts", poll: false, watchFile: watch.watchFile, stat: () => null, typeCheck });
  session.subscribe((e) => void log.push(e.type));
  session.rerun();
  runner.finish();
  await vi.advanceTimersByTimeAsync(0);
  expect(log).toEqual(["pause", "run-started", "run-finished", "resume", "check"]);

  // A save while that check is going: the check is paused for the new run, and its answer
  // (for a file that has changed since) is dropped for a check of the file the run tested.
  log.length = 0;
  watch.save();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS);
  expect(log).toEqual(["save-seen", "pause", "pause", "run-started"]); // from the save on, not only from the run
  runner.finish();
  await vi.advanceTimersByTimeAsync(0);
  answer([{ line: 1, column: 1, code: 2322, message: "stale" }]);
  await vi.advanceTimersByTimeAsync(0);
  expect(log).toEqual(["save-seen", "pause", "pause", "run-started", "run-finished", "resume", "check"]);
  answer([]);
  await vi.advanceTimersByTimeAsync(0);
  expect(log.at(-1)).toBe("type-errors");
  await session.close();
});

test("a save seen as the session closes, its run never started, does not leave the type checker paused", async () => {
  const runner = fakeRunner();
  const watch = fakeWatch();
  const log: string[] = [];
  const { typeCheck } = loggingTypeCheck(log);
  const session = await WatchSession.start({ runner, exercise, file: "f.ts", poll: false, watchFile: watch.watchFile, stat: () => null, typeCheck });
  watch.save();
  await session.close();
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 2);
  expect(runner.runs).toBe(0);
  expect(log).toEqual(["pause", "resume"]);
});
