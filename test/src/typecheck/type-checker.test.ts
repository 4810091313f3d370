import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, expect, test } from "vitest";
import { PENDING, settledOr, TypeChecker } from "../../../src/typecheck/type-checker.js";
import { tempDir } from "../../support/temp-dir.js";

// The real TypeScript language service in its worker thread (from dist: npm run build first).
const solution = readFileSync(resolve(import.meta.dirname, "../../../solutions/01-tool-loop.ts"), "utf8");
const checker = new TypeChecker();
afterAll(() => checker.close());

test("a string given to a number is a type error with its line and column; the fixed file has none; a file outside the lab still finds the SDK", async () => {
  const file = join(tempDir("types"), "01-tool-loop.ts"); // in the system's temp folder, far from the lab's node_modules
  const lines = solution.split("\n");
  const at = lines.findIndex((l) => l.startsWith("const DECLINED = "));
  writeFileSync(file, solution.replace("const DECLINED = ", "const DECLINED: number = "));
  const errors = await checker.check(file);
  expect(errors).toContainEqual({ line: at + 1, column: 7, code: 2322, message: "Type 'string' is not assignable to type 'number'." });
  writeFileSync(file, solution);
  expect(await checker.check(file)).toEqual([]);
}, 120_000);

test("a file that is gone says nothing, rather than something wrong", async () => {
  expect(await checker.check(join(tempDir("types"), "missing.ts"))).toBeNull();
}, 120_000);

test("a process that awaits a check and then close() ends on its own, exit 0 (the checker holds it open only while it is awaited)", () => {
  const root = resolve(import.meta.dirname, "../../..");
  const script = `import { TypeChecker } from ${JSON.stringify(join(root, "dist/src/typecheck/type-checker.js"))};
const t = new TypeChecker();
const errors = await t.check(${JSON.stringify(join(root, "solutions/01-tool-loop.ts"))});
await t.close();
console.log(JSON.stringify(errors));`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 110_000 });
  expect(run.status).toBe(0);
  expect(run.stdout.trim()).toBe("[]");
}, 120_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The process's scheduling state from /proc ("T" stopped) and the CPU it has used, in clock ticks. */
function procState(pid: number): { state: string; ticks: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return { state: fields[0]!, ticks: Number(fields[11]) + Number(fields[12]) };
}

test.runIf(process.platform === "linux")(
  "paused for a test run, the checker is stopped and uses no CPU, its check waiting; resumed, the check completes; close() ends it even paused",
  async () => {
    const own = new TypeChecker();
    try {
      const file = join(tempDir("types"), "01-tool-loop.ts");
      writeFileSync(file, solution);
      expect(await own.check(file)).toEqual([]); // warm: the process exists
      const pid = own.pid!;
      writeFileSync(file, solution.replace("const DECLINED = ", "const DECLINED: number = "));
      own.pause();
      const checked = own.check(file);
      // A signal lands when the kernel next schedules the process: on a busy machine, not at once.
      for (let i = 0; i < 500 && procState(pid).state !== "T"; i++) await sleep(10);
      const before = procState(pid);
      await sleep(300);
      const after = procState(pid);
      expect(before.state).toBe("T");
      expect(after).toEqual(before); // still stopped, not one tick of CPU while paused
      let done = false;
      void checked.then(() => (done = true));
      expect(done).toBe(false);
      own.resume();
      expect(procState(pid).state).not.toBe("T");
      expect((await checked)?.map((e) => e.code)).toContain(2322);
      own.pause();
      await own.close();
      expect(() => process.kill(pid, 0)).toThrow(); // gone, not left stopped
    } finally {
      await own.close();
    }
  },
  120_000,
);

test("settledOr: a settled promise's value at once, a pending one's PENDING at once, never a wait", async () => {
  expect(await settledOr(Promise.resolve([]))).toEqual([]);
  expect(await settledOr(Promise.resolve(null))).toBeNull();
  expect(await settledOr(new Promise(() => {}))).toBe(PENDING);
  const late = new Promise<string>((resolve) => setImmediate(() => resolve("late")));
  expect(await settledOr(late)).toBe(PENDING);
  await late;
  expect(await settledOr(late)).toBe("late");
});
