import { fork, spawn, type ChildProcess } from "node:child_process";
import { afterEach, expect, test } from "vitest";
import { labPaths } from "../../../../checker/paths.js";
import { OutsideWatcher, type GuardReport } from "../../../../checker/run/stopping/outside-watcher-link.js";
import { alive } from "../../../support/processes.js";
import { until } from "../../../support/until.js";

const started: ChildProcess[] = [];

/** A stand-in worker: an idle Node process in its own process group, as the pool forks them. */
function idleProcess(): ChildProcess {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore", detached: true });
  started.push(child);
  return child;
}

// A test that fails before the guard kills its stand-in leaves no idle process behind.
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

const exited = (child: ChildProcess) => new Promise<NodeJS.Signals | null>((done) => child.once("exit", (_code, signal) => done(signal)));

test("closing the guard's channel kills every process it still watches, then the guard", async () => {
  const guard = OutsideWatcher.start();
  const worker = idleProcess();
  guard.watch(worker, null, false, () => {});
  const signal = exited(worker);
  await new Promise((resolve) => setTimeout(resolve, 300));
  guard.close();
  expect(await signal).toBe("SIGKILL");
  await until(() => !alive(guard.pid!), "the guard to end", 3_000, 20);
});

test("a watched process past its memory limit is reported, then killed", async () => {
  const guard = OutsideWatcher.start();
  const worker = idleProcess();
  const reports: GuardReport[] = [];
  const signal = exited(worker);
  guard.watch(worker, 1, false, (report) => reports.push(report));
  expect(await signal).toBe("SIGKILL");
  expect(reports).toEqual([{ type: "over-memory", pid: worker.pid, usedMb: expect.any(Number), limitMb: 1 }]);
  expect(reports[0]!.usedMb).toBeGreaterThan(1);
  guard.close();
});

test("a guard whose channel closed before it started exits instead of polling forever", async () => {
  const guard = fork(labPaths().outsideWatcher, [], { execArgv: [], stdio: "ignore", detached: true });
  guard.disconnect();
  await until(() => !alive(guard.pid!), "the guard to end", 3_000, 20);
});
