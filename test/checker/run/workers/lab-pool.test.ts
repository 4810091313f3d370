import { EventEmitter } from "node:events";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { PassThrough } from "node:stream";
import { expect, onTestFinished, test } from "vitest";
import { labPool } from "../../../../checker/run/workers/lab-pool.js";
import { SpareProcesses, YOUNG_GENERATION_MB } from "../../../../checker/run/workers/spare-processes.js";
import { labPaths } from "../../../../checker/paths.js";
import { PID_NAMESPACE_ENV } from "../../../../checker/run/walls/pid-namespace.js";
import { until } from "../../../support/until.js";
import { tempDir } from "../../../support/temp-dir.js";

const vitestDist = dirname(createRequire(import.meta.url).resolve("vitest/package.json")) + "/dist";
const noWatchdog = { started() {}, died() {}, finished() {}, forged() {} };

function poolOptions() {
  const stream = () => new PassThrough().resume();
  return { distPath: vitestDist, execArgv: [], env: {}, project: { vitest: { logger: { outputStream: stream(), errorStream: stream() } } } };
}

test("a worker killed once no task listens for it (abort after its files finished) is no uncaught error in lab", async () => {
  const spares = new SpareProcesses(labPaths().preload);
  const options = poolOptions();
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on("uncaughtException", onUncaught);
  const worker = labPool(spares, noWatchdog).createPoolWorker(options as never);
  await worker.start();
  // What vitest's pool runner attaches: an exit becomes an "error" on its own emitter, whose
  // listener is the task's and is gone once the task finished or was cancelled.
  const runnerEvents = new EventEmitter();
  const exited = new Promise<void>((done) =>
    worker.on("exit", () => {
      done();
      runnerEvents.emit("error", new Error("Worker exited unexpectedly"));
    }),
  );
  spares.killAll();
  await exited;
  await new Promise((resolve) => setImmediate(resolve));
  process.off("uncaughtException", onUncaught);
  expect(uncaught).toEqual([]);
});

test("a worker that exits late, after reporting its file, leaves the watchdog of the file's next run alone", async () => {
  const spares = new SpareProcesses(labPaths().preload);
  const calls: string[] = [];
  const watchdog = {
    started: (files: string[]) => calls.push(`started ${files}`),
    finished: (files: string[]) => calls.push(`finished ${files}`),
    died: (files: string[]) => calls.push(`died ${files}`),
    forged: (files: string[]) => calls.push(`forged ${files}`),
  };
  const pool = labPool(spares, watchdog);
  // Without vitest's request flag the worker processes ignore it; the pool still sees a run of the file.
  const run = { type: "run", context: { files: [{ filepath: "/lab/hidden.test.ts" }] } } as never;
  const first = pool.createPoolWorker(poolOptions() as never);
  await first.start();
  first.send(run);
  first.deserialize({ __vitest_worker_response__: true, type: "testfileFinished" });
  // vitest starts the next run without waiting for the last worker to be gone.
  const stopping = first.stop();
  const second = pool.createPoolWorker(poolOptions() as never);
  await second.start();
  second.send(run);
  await stopping;
  spares.killAll();
  expect(calls).toEqual(["started /lab/hidden.test.ts", "finished /lab/hidden.test.ts", "started /lab/hidden.test.ts"]);
});

/**
 * A spare forked with `preload` as its only preload, once the preload has written `marker`
 * (the file the preload's source names as MARKER).
 */
async function spareWith(preload: string): Promise<{ spares: SpareProcesses; spec: ReturnType<SpareProcesses["specFor"]>; marker: string }> {
  const dir = tempDir("spare");
  const marker = join(dir, "marker");
  const file = join(dir, "preload.mjs");
  writeFileSync(file, preload.replace("MARKER", JSON.stringify(marker)));
  const spares = new SpareProcesses(file);
  const spec = spares.specFor(poolOptions() as never);
  spares.refill(spec);
  await until(() => existsSync(marker) && readFileSync(marker, "utf8") !== "", "the marker file to be written", 10_000, 20);
  return { spares, spec, marker };
}

test("taking a spare whose stdin is already closed (it is dying) is no uncaught EPIPE in lab", async () => {
  // What a process that just died looks like from here, before its exit is reaped: a broken pipe.
  // Under a PID namespace the shell and unshare above the worker keep the pipe open, so the
  // worker runs as a plain child here: its closed stdin is the pipe's only reader.
  const namespace = process.env[PID_NAMESPACE_ENV];
  process.env[PID_NAMESPACE_ENV] = "off";
  onTestFinished(() => void (namespace === undefined ? delete process.env[PID_NAMESPACE_ENV] : (process.env[PID_NAMESPACE_ENV] = namespace)));
  const { spares, spec } = await spareWith(
    `import { closeSync, writeFileSync } from "node:fs";\ncloseSync(0);\nwriteFileSync(MARKER, "closed");\nsetInterval(() => {}, 1000);\n`,
  );
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on("uncaughtException", onUncaught);
  const stdin = (await spares.take(spec)).child.stdin!;
  // The broken pipe destroys stdin: its "close" follows the "error", and an unhandled error would
  // reach uncaughtException first. A listener of our own on "error" would hide that, so none here.
  await new Promise((resolve) => stdin.once("close", resolve)); // not events.once: it listens for "error" too
  await new Promise((resolve) => setImmediate(resolve));
  process.off("uncaughtException", onUncaught);
  spares.killAll();
  expect((stdin.errored as NodeJS.ErrnoException | null)?.code).toBe("EPIPE");
  expect(uncaught).toEqual([]);
});

test("a worker starts with a young generation large enough that a run allocates without collecting", async () => {
  const { spares, marker } = await spareWith(
    `import { writeFileSync } from "node:fs";\nimport { getHeapSpaceStatistics } from "node:v8";\nwriteFileSync(MARKER, String(getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size));\n`,
  );
  spares.killAll();
  expect(Number(readFileSync(marker, "utf8"))).toBe(YOUNG_GENERATION_MB * 1024 * 1024);
});
