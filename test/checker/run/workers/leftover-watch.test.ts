import { afterEach, expect, test } from "vitest";
import { CHANGED_SINCE_CHECK_EXIT, leftoverWatch } from "../../../../checker/run/workers/leftover-watch.js";
import { LEFTOVER_KEY, LEFTOVER_MESSAGES, type LeftoverMessage } from "../../../../checker/run/workers/leftovers.js";

const undo: (() => void)[] = [];
afterEach(() => {
  for (const step of undo.splice(0).reverse()) step();
});

/** The worker's side, driven as the pool drives it: "start" before a file, "check" after it. */
function watch() {
  const exits: number[] = [];
  // No polling here: a timer of the test's own would count as the file's.
  let answered: (message: LeftoverMessage) => void = () => {};
  const onMessage = leftoverWatch({ exit: (code) => exits.push(code), reply: (message) => answered(message) });
  const check = async (): Promise<string[]> => {
    const answer = new Promise<LeftoverMessage>((resolve) => (answered = resolve));
    expect(onMessage({ [LEFTOVER_KEY]: "check" })).toBe(true);
    const message = await answer;
    return message[LEFTOVER_KEY] === "found" ? message.found : [];
  };
  // A worker is told "start" while vitest is idle between files; in the middle of this test
  // file, vitest's own short timers come and go, so wait for them to go (polling with
  // setImmediate, which is no timer).
  const start = async () => {
    const giveUp = performance.now() + 5_000;
    while (process.getActiveResourcesInfo().includes("Timeout") && performance.now() < giveUp) await new Promise((resolve) => setImmediate(resolve));
    expect(process.getActiveResourcesInfo(), "no timer of vitest's is active when the file starts").not.toContain("Timeout");
    return onMessage({ [LEFTOVER_KEY]: "start" });
  };
  return { start, check, exits, onMessage };
}

test("a file that changed nothing leaves nothing, and vitest's own messages are not the watch's", async () => {
  const { start, check, onMessage } = watch();
  expect(onMessage({ __vitest_worker_request__: true, type: "run" })).toBe(false);
  await start();
  const scratch = [1, 2, 3].map((n) => n * 2); // ordinary work, no lasting effect
  expect(scratch).toHaveLength(3);
  expect(await check()).toEqual([]);
});

test("a pending timer is a leftover; one cleared before the check is not", async () => {
  const { start, check } = watch();
  await start();
  const cleared = setTimeout(() => {}, 60_000);
  clearTimeout(cleared);
  const left = setInterval(() => {}, 60_000);
  undo.push(() => clearInterval(left));
  expect(await check()).toEqual([LEFTOVER_MESSAGES.resource("Timeout", 1)]);
});

test("an open server is a leftover until it closes; closing within the settling time is no leftover", async () => {
  const { createServer } = await import("node:net");
  const { start, check } = watch();
  await start();
  const server = createServer().listen(0, "127.0.0.1");
  undo.push(() => server.close());
  await new Promise((resolve) => server.once("listening", resolve));
  expect(await check()).toContain(LEFTOVER_MESSAGES.resource("TCPServerWrap", 1));

  await start();
  const closing = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => closing.once("listening", resolve));
  setTimeout(() => closing.close(), 5); // still open when asked, closed a moment later
  expect(await check()).toEqual([]);
});

test("a patched global, prototype, built-in module, environment variable or process listener is a leftover", async () => {
  const { start, check } = watch();
  const fs = await import("node:fs");
  await start();
  const flat = Array.prototype.flat;
  Array.prototype.flat = function patched() {
    return [];
  } as typeof flat;
  undo.push(() => (Array.prototype.flat = flat));
  (globalThis as Record<string, unknown>).leftBehind = 1;
  undo.push(() => delete (globalThis as Record<string, unknown>).leftBehind);
  const mathRandom = Math.random;
  Math.random = () => 0.5;
  undo.push(() => (Math.random = mathRandom));
  const existsSync = fs.default.existsSync;
  fs.default.existsSync = () => true;
  undo.push(() => (fs.default.existsSync = existsSync));
  process.env.LAB_LEFT_BEHIND = "1";
  undo.push(() => delete process.env.LAB_LEFT_BEHIND);
  const onWarning = () => {};
  process.on("warning", onWarning);
  undo.push(() => process.off("warning", onWarning));

  expect(await check()).toEqual(
    expect.arrayContaining([
      LEFTOVER_MESSAGES.changed('Array.prototype["flat"]'),
      LEFTOVER_MESSAGES.added('globalThis["leftBehind"]'),
      LEFTOVER_MESSAGES.changed('Math["random"]'),
      LEFTOVER_MESSAGES.changed('node:fs["existsSync"]'),
      LEFTOVER_MESSAGES.added('process.env["LAB_LEFT_BEHIND"]'),
      LEFTOVER_MESSAGES.listeners("warning"),
    ]),
  );
});

test("a change made after the check (a timer that kept nothing alive) ends the process before the next file runs", async () => {
  const { start, check, exits } = watch();
  await start();
  expect(await check()).toEqual([]);
  await start();
  expect(exits).toEqual([]);
  expect(await check()).toEqual([]);
  (globalThis as Record<string, unknown>).lateChange = true;
  undo.push(() => delete (globalThis as Record<string, unknown>).lateChange);
  await start();
  expect(exits).toEqual([CHANGED_SINCE_CHECK_EXIT]);
});

test("a server opened after the check ends the process before the next file runs too", async () => {
  const { createServer } = await import("node:net");
  const { start, check, exits } = watch();
  await start();
  expect(await check()).toEqual([]);
  const late = createServer().listen(0, "127.0.0.1");
  undo.push(() => late.close());
  await new Promise((resolve) => late.once("listening", resolve));
  await start();
  expect(exits).toEqual([CHANGED_SINCE_CHECK_EXIT]);
});

test("what vitest sets up in a process's first file (uncaught-error listeners, its console) is a leftover in any later one", async () => {
  const { start, check } = watch();
  const onError = () => {};
  const console = globalThis.console;
  for (const file of ["first", "second"]) {
    await start();
    process.on("uncaughtException", onError);
    undo.push(() => process.off("uncaughtException", onError));
    globalThis.console = { ...console };
    undo.push(() => (globalThis.console = console));
    const found = await check();
    process.off("uncaughtException", onError);
    globalThis.console = console;
    if (file === "first") expect(found, file).toEqual([]);
    else expect(found, file).toEqual([LEFTOVER_MESSAGES.changed('globalThis["console"]'), LEFTOVER_MESSAGES.listeners("uncaughtException")]);
  }
});
