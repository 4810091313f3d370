import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import { Runner } from "../../../checker/run/runner.js";
import { tempDir } from "../../support/temp-dir.js";

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

describe("whatever a file's code started or changed ends with its realm: the owner's next file runs on the same process, its row exact", () => {
  const leavers = {
    "fails, leaves nothing": "export const left = 0;",
    "leaves a timer": "setInterval(() => {}, 60_000);",
    "patches a prototype": 'Date.prototype.toLocaleDateString = () => "never";',
    "sets an environment variable": 'process.env.LEFT_BEHIND = "1";',
    "leaves a server listening": 'import * as labNet from "node:net";\nlabNet.createServer().listen(0);',
  };
  test.each(Object.entries(leavers))("%s", async (name, code) => {
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
    expect(two, "the same process ran both files").toBe(one);
  });
});

test("a timer a file left behind never fires again once its file is done, even unref'd and in the owner's next file", async () => {
  const dir = tempDir("owner-late");
  const ticks = join(dir, "ticks.txt");
  // Unref'd and frequent: in one realm with the tests it would still be firing during the next file.
  const late = `setInterval(() => labFs.appendFileSync(${JSON.stringify(ticks)}, "."), 1).unref();\n`;
  writeFileSync(join(dir, "01-adder.ts"), `${recordsPid(join(dir, "pids.txt"))}${late}${readFileSync(adder!.solution, "utf8")}`);
  writeFileSync(join(dir, "02-greeter.ts"), readFileSync(greeter!.solution, "utf8"));

  const [first] = await runner.runMany([{ exercise: adder!, implFile: join(dir, "01-adder.ts"), owner: dir }]);
  const after = existsSync(ticks) ? readFileSync(ticks, "utf8").length : 0;
  const [second] = await runner.runMany([{ exercise: greeter!, implFile: join(dir, "02-greeter.ts"), owner: dir }]);
  await runner.retireWorkers();

  expect(first).toMatchObject({ status: "passed", error: null });
  expect(second).toMatchObject({ status: "passed", error: null });
  expect(existsSync(ticks) ? readFileSync(ticks, "utf8").length : 0, "no tick after the file was done").toBe(after);
});
