import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { PassThrough } from "node:stream";
import { expect, test } from "vitest";
import { labPool, SpareProcesses } from "../../../checker/run/lab-pool.js";
import { labPaths } from "../../../checker/paths.js";

const vitestDist = dirname(createRequire(import.meta.url).resolve("vitest/package.json")) + "/dist";
const noWatchdog = { started() {}, died() {}, finished() {} };

test("a worker killed once no task listens for it (abort after its files finished) is no uncaught error in lab", async () => {
  const spares = new SpareProcesses(labPaths().preload);
  const options = {
    distPath: vitestDist,
    execArgv: [],
    env: {},
    project: { vitest: { logger: { outputStream: new PassThrough().resume(), errorStream: new PassThrough().resume() } } },
  };
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on("uncaughtException", onUncaught);
  const worker = labPool(spares, noWatchdog).createPoolWorker(options as never);
  await worker.start();
  // What vitest's pool runner attaches: an exit becomes an "error" on its own emitter, whose
  // listener is the task's and is gone once the task finished or was cancelled.
  const runnerEvents = new EventEmitter();
  const exited = new Promise<void>((done) => worker.on("exit", () => {
    done();
    runnerEvents.emit("error", new Error("Worker exited unexpectedly"));
  }));
  spares.killAll();
  await exited;
  await new Promise((resolve) => setImmediate(resolve));
  process.off("uncaughtException", onUncaught);
  expect(uncaught).toEqual([]);
});
