import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, onTestFinished, test } from "vitest";
import { WARM_UP_ENV } from "../../../checker/run/workers/worker-env.js";
import { alive } from "../../support/processes.js";
import { until } from "../../support/until.js";
import { tempDir } from "../../support/temp-dir.js";

/** The worker's pid as this process sees it: in a PID namespace (pid-namespace.ts) its own is small; /proc here is the outer one. */
const OUTER_PID = `(process.platform === "linux" ? readlinkSync("/proc/self") : String(process.pid))`;

const root = join(import.meta.dirname, "../../..");
const fixture = join(root, "test/fixtures/lab");

test("a worker stuck in while (true) dies when the process that owns the runner is killed with SIGKILL", async () => {
  const dir = tempDir("orphan");
  const pidFile = join(dir, "worker.pid");
  const solution = readFileSync(join(fixture, "solutions/01-adder.ts"), "utf8");
  const learner = join(dir, "01-adder.ts");
  writeFileSync(
    learner,
    `import { readlinkSync, writeFileSync } from "node:fs";\n${solution.replace("return a + b;", `writeFileSync(${JSON.stringify(pidFile)}, ${OUTER_PID});\n  while (true) {}`)}`,
  );
  const script = `
    import { Runner } from ${JSON.stringify(join(root, "dist/checker/run/runner.js"))};
    import { loadExercises } from ${JSON.stringify(join(root, "dist/checker/model/exercises.js"))};
    const [adder] = loadExercises(${JSON.stringify(join(fixture, "exercises"))}, ${JSON.stringify(join(fixture, "solutions"))});
    const runner = await Runner.create({ timeoutSeconds: 60 });
    await runner.run({ exercise: adder, implFile: ${JSON.stringify(learner)} });`;
  // Killed, the owner never removes its runner's scratch folder or vitest's transform copies:
  // TMPDIR puts both in `dir`.
  const owner = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore", env: { ...process.env, TMPDIR: dir } });
  onTestFinished(() => void owner.kill("SIGKILL"));
  await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "", "the worker writing its pid", 30_000, 20);
  const worker = Number(readFileSync(pidFile, "utf8"));
  expect(alive(worker)).toBe(true);
  owner.kill("SIGKILL");
  await until(() => !alive(worker), "the orphaned worker to end", 3_000, 20);

  // Its scratch folder stays behind, owned by a dead pid; the next runner made here removes it.
  const stale = readdirSync(dir).filter((name) => name.startsWith("lab-run-"));
  expect(stale).toHaveLength(1);
  const next = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { Runner } from ${JSON.stringify(join(root, "dist/checker/run/runner.js"))}; const r = await Runner.create(); await r.close();`,
    ],
    { encoding: "utf8", env: { ...process.env, TMPDIR: dir } },
  );
  expect(next.status).toBe(0);
  expect(readdirSync(dir).filter((name) => name.startsWith("lab-run-"))).toEqual([]);
}, 60_000);

test("a spare worker rehearsing (its own provider listening) exits when its parent died", async () => {
  // No outside watcher here: the worker must notice on its own that nobody will ever send it a file.
  const script = `
    import { spawn } from "node:child_process";
    import { openChannel } from ${JSON.stringify(join(root, "dist/checker/run/workers/channel.js"))};
    const child = spawn(process.execPath, ["--conditions=lab-bundled-sdk", "--import=" + ${JSON.stringify(join(root, "dist/checker/run/workers/preload.js"))}, ${JSON.stringify(join(root, "node_modules/vitest/dist/workers/forks.js"))}], {
      env: { ...process.env, ${JSON.stringify(WARM_UP_ENV)}: "1" }, stdio: ["pipe", "ignore", "ignore", "pipe"], detached: true,
    });
    openChannel(child);
    process.stdout.write(String(child.pid), () => process.kill(process.pid, "SIGKILL"));`;
  const parent = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  expect(parent.signal).toBe("SIGKILL");
  const worker = Number(parent.stdout);
  onTestFinished(() => void (alive(worker) && process.kill(worker, "SIGKILL")));
  await until(() => !alive(worker), "the orphaned worker to end", 15_000, 50);
}, 30_000);
