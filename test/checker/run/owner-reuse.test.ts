import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import { Runner } from "../../../checker/run/runner.js";
import { tempDir } from "../../support/temp-dir.js";
import { until } from "../../support/until.js";

/** The worker's pid as this process sees it (in a PID namespace its own is small; /proc here is the outer one). */
const OUTER_PID = `(process.platform === "linux" ? labFs.readlinkSync("/proc/self") : String(process.pid))`;

/** Lines that make a learner file append its worker's pid to `pids` as it loads (node:fs is `labFs` there). */
const recordsPid = (pids: string) => `import * as labFs from "node:fs";\nlabFs.appendFileSync(${JSON.stringify(pids)}, ${OUTER_PID} + "\\n");\n`;

const fixture = join(import.meta.dirname, "../../fixtures/class");
const [adder, greeter] = loadExercises(join(fixture, "exercises"), join(fixture, "solutions"));
let runner: Runner;

beforeAll(async () => {
  // The workers' whole environment replaced, as grading does: whatever vite then adds to it is not the file's doing.
  runner = await Runner.create({ timeoutSeconds: 10, env: { PATH: process.env.PATH ?? "" }, codeOverIpc: true });
});
afterAll(() => runner.close());

test("a learner's second file runs in the process that ran the first, and sees none of the module state the first left", async () => {
  const dir = tempDir("owner-reuse");
  const pids = join(dir, "pids.txt");
  const header = (name: string) =>
    [
      `import { seen } from "./memo.ts";`,
      // Set at module level by the first file: a later file must find it empty.
      `if (seen.length > 0) throw new Error("module state left by " + seen.join(", "));`,
      `seen.push(${JSON.stringify(name)});`,
      recordsPid(pids),
    ].join("\n");
  writeFileSync(join(dir, "memo.ts"), "export const seen: string[] = [];\n");
  writeFileSync(join(dir, "01-adder.ts"), `${header("01-adder")}\n${readFileSync(adder!.solution, "utf8")}`);
  writeFileSync(join(dir, "02-greeter.ts"), `${header("02-greeter")}\n${readFileSync(greeter!.solution, "utf8")}`);

  const [first] = await runner.runMany([{ exercise: adder!, implFile: join(dir, "01-adder.ts"), owner: dir }]);
  const [second] = await runner.runMany([{ exercise: greeter!, implFile: join(dir, "02-greeter.ts"), owner: dir }]);
  await runner.retireWorkers();

  expect(first).toMatchObject({ status: "passed", error: null });
  expect(second).toMatchObject({ status: "passed", error: null });
  const [one, two, ...more] = readFileSync(pids, "utf8").trim().split("\n");
  expect(more).toEqual([]);
  expect(two).toBe(one);
});

test("runs of different owners never share a process", async () => {
  const pids = join(tempDir("owner-pids"), "pids.txt");
  const files = ["ada", "ben"].map((owner) => {
    const dir = tempDir(`owner-${owner}`);
    const file = join(dir, "01-adder.ts");
    writeFileSync(file, `${recordsPid(pids)}${readFileSync(adder!.solution, "utf8")}`);
    return { file, owner: dir };
  });
  for (const { file, owner } of [...files, files[0]!]) {
    const [result] = await runner.runMany([{ exercise: adder!, implFile: file, owner }]);
    expect(result!.status).toBe("passed");
  }
  await runner.retireWorkers();
  const seen = readFileSync(pids, "utf8").trim().split("\n");
  expect(new Set(seen).size).toBe(3);
});

describe("a file that fails hands its process to the owner's next file only when it left nothing behind", () => {
  const leavers = {
    "fails, leaves nothing": { code: "export const left = 0;", kept: true },
    "leaves a timer": { code: "setInterval(() => {}, 60_000);", kept: false },
    "patches a prototype": { code: 'Date.prototype.toLocaleDateString = () => "never";', kept: false },
    "sets an environment variable": { code: 'process.env.LEFT_BEHIND = "1";', kept: false },
  };
  test.each(Object.entries(leavers))("%s", async (name, { code, kept }) => {
    const dir = tempDir("owner-leftovers");
    const pids = join(dir, "pids.txt");
    const record = recordsPid(pids);
    // Wrong on purpose: add() is off by one, so every run of it fails.
    const wrong = readFileSync(adder!.solution, "utf8").replace("return a + b;", "return a + b + 1;");
    writeFileSync(join(dir, "01-adder.ts"), `${record}${code}\n${wrong}`);
    writeFileSync(join(dir, "02-greeter.ts"), `${record}${readFileSync(greeter!.solution, "utf8")}`);

    const [first] = await runner.runMany([{ exercise: adder!, implFile: join(dir, "01-adder.ts"), owner: dir }]);
    const [second] = await runner.runMany([{ exercise: greeter!, implFile: join(dir, "02-greeter.ts"), owner: dir }]);
    await runner.retireWorkers();

    expect(first!.status, name).toBe("failed");
    expect(second, "the next file's row is what a fresh process gives").toMatchObject({ status: "passed", error: null });
    const [one, two] = readFileSync(pids, "utf8").trim().split("\n");
    if (kept) expect(two, "the same process ran both files").toBe(one);
    else expect(two, "a fresh process ran the second file").not.toBe(one);
  });
});

test("a change made after the file's check (by a timer that kept nothing alive) sends the next file to a fresh process, its row exact", async () => {
  const dir = tempDir("owner-late");
  const pids = join(dir, "pids.txt");
  const fired = join(dir, "fired.txt");
  const record = recordsPid(pids);
  // Unref'd, so nothing is pending when the file is checked; it fires a moment later.
  const late = `setTimeout(() => { (globalThis as Record<string, unknown>).lateMark = 1; labFs.writeFileSync(${JSON.stringify(fired)}, "1"); }, 300).unref();\n`;
  writeFileSync(join(dir, "01-adder.ts"), `${record}${late}${readFileSync(adder!.solution, "utf8")}`);
  writeFileSync(join(dir, "02-greeter.ts"), `${record}${readFileSync(greeter!.solution, "utf8")}`);

  const [first] = await runner.runMany([{ exercise: adder!, implFile: join(dir, "01-adder.ts"), owner: dir }]);
  await until(() => existsSync(fired), "the late timer to fire", 10_000, 10);
  const [second] = await runner.runMany([{ exercise: greeter!, implFile: join(dir, "02-greeter.ts"), owner: dir }]);
  await runner.retireWorkers();

  expect(first).toMatchObject({ status: "passed", error: null });
  expect(second, "the next file's row is what a fresh process gives").toMatchObject({ status: "passed", error: null });
  const [one, two, ...more] = readFileSync(pids, "utf8").trim().split("\n");
  expect(more).toEqual([]);
  expect(two, "a fresh process ran the second file").not.toBe(one);
});
