import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import { Runner } from "../../../checker/run/runner.js";
import { tempDir } from "../../support/temp-dir.js";

/** The worker's pid as this process sees it (in a PID namespace its own is small; /proc here is the outer one). */
const OUTER_PID = `(process.platform === "linux" ? readlinkSync("/proc/self") : String(process.pid))`;

const fixture = join(import.meta.dirname, "../../fixtures/class");
const [adder, greeter] = loadExercises(join(fixture, "exercises"), join(fixture, "solutions"));
let runner: Runner;

beforeAll(async () => {
  runner = await Runner.create({ timeoutSeconds: 10 });
});
afterAll(() => runner.close());

test("a learner's second file runs in the process that ran the first, and sees none of the module state the first left", async () => {
  const dir = tempDir("owner-reuse");
  const pids = join(dir, "pids.txt");
  const header = (name: string) =>
    [
      `import { appendFileSync, readlinkSync } from "node:fs";`,
      `import { seen } from "./memo.ts";`,
      // Set at module level by the first file: a later file must find it empty.
      `if (seen.length > 0) throw new Error("module state left by " + seen.join(", "));`,
      `seen.push(${JSON.stringify(name)});`,
      `appendFileSync(${JSON.stringify(pids)}, ${OUTER_PID} + "\\n");`,
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
    writeFileSync(
      file,
      `import { appendFileSync, readlinkSync } from "node:fs";\nappendFileSync(${JSON.stringify(pids)}, ${OUTER_PID} + "\\n");\n${readFileSync(adder!.solution, "utf8")}`,
    );
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
