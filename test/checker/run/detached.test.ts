/**
 * Learner code in `lab check` (no sandbox) may start processes; whatever it starts must not
 * outlive its run, even a detached child in a session of its own, which a process-group kill
 * cannot reach. In a PID namespace the kernel takes it down with the worker; without one,
 * the guard kills what it saw below the worker.
 */
import { existsSync, readFileSync } from "node:fs";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import { PID_NAMESPACE_ENV, pidNamespaces } from "../../../checker/run/walls/pid-namespace.js";
import { Runner } from "../../../checker/run/runner.js";
import { alive } from "../../support/processes.js";
import { until } from "../../support/until.js";
import { tempDir } from "../../support/temp-dir.js";

const fixture = join(import.meta.dirname, "../../fixtures/lab");
const [adder] = loadExercises(join(fixture, "exercises"), join(fixture, "solutions"));
const solution = readFileSync(join(fixture, "solutions/01-adder.ts"), "utf8");

/**
 * A learner file that, while loading, starts a detached child that records its pid (as this
 * process sees it) and waits a minute; then it goes on loading for 300 ms, or, `forever`, never
 * finishes (its run is stopped at the time limit, with the realm's thread that started the
 * child still running).
 */
function detachingFile(dir: string, pidFile: string, forever = false): string {
  const child = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, process.platform === "linux" ? require("fs").readlinkSync("/proc/self") : String(process.pid)); setTimeout(() => {}, 60000);`;
  const file = join(dir, "01-adder.ts");
  writeFileSync(
    file,
    `import { spawn } from "node:child_process";\n${solution}\nspawn(process.execPath, ["-e", ${JSON.stringify(child)}], { detached: true, stdio: "ignore" }).unref();\nawait new Promise((resolve) => ${forever ? "void resolve" : "setTimeout(resolve, 300)"});\n`,
  );
  return file;
}

const before = process.env[PID_NAMESPACE_ENV];
afterEach(() => {
  if (before === undefined) delete process.env[PID_NAMESPACE_ENV];
  else process.env[PID_NAMESPACE_ENV] = before;
});

const modes = [
  ["in a PID namespace", "", pidNamespaces()],
  ["without one (tracked by the guard)", "off", process.platform === "linux"],
] as const;

/**
 * Runs a detaching learner file (see detachingFile) with the PID namespace `setting`, expects
 * the run to end `status`, and then the detached child to be gone.
 */
async function detachedChildEnds(setting: string, forever: boolean, status: "passed" | "timeout"): Promise<void> {
  process.env[PID_NAMESPACE_ENV] = setting;
  const dir = tempDir("detached");
  const pidFile = join(dir, "child.pid");
  const runner = await Runner.create({ timeoutSeconds: forever ? 3 : 20 });
  let pid = 0;
  try {
    const result = await runner.run({ exercise: adder!, implFile: detachingFile(dir, pidFile, forever) });
    expect(result.status).toBe(status);
    await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "", "the detached child writing its pid", 10_000, 20);
    pid = Number(readFileSync(pidFile, "utf8"));
  } finally {
    await runner.close();
  }
  await until(() => !alive(pid), "the detached child to end", 5_000, 20);
}

test.each(modes)(
  "a detached child started by learner code is gone once the run is over: %s",
  async (_mode, setting, applies) => {
    if (applies) await detachedChildEnds(setting, false, "passed");
  },
  60_000,
);

test.runIf(process.platform === "linux")(
  "without a PID namespace, a detached child started from the realm's thread is seen and killed: the run is stopped while that thread still runs",
  () => detachedChildEnds("off", true, "timeout"),
  60_000,
);
