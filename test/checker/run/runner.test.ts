import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import { loadExercises } from "../../../checker/model/exercises.js";
import type { RunEvent } from "../../../checker/model/result.js";
import { Runner } from "../../../checker/run/runner.js";
import { REALM_MESSAGES } from "../../../checker/realm/messages.js";
import { CALL_LIMIT_ENV } from "../../../checker/realm/host.js";
import { tempDir } from "../../support/temp-dir.js";

/** The worker's pid as this process sees it: in a PID namespace (pid-namespace.ts) its own is small; /proc here is the outer one. */
const OUTER_PID = `(process.platform === "linux" ? readlinkSync("/proc/self") : String(process.pid))`;

const fixture = join(import.meta.dirname, "../../fixtures/lab");
const adder = loadExercises(join(fixture, "exercises"), join(fixture, "solutions"))[0]!;
const solution = readFileSync(adder.solution, "utf8");
const LIMIT_SECONDS = 3;
let runner: Runner;
let work: string;

function learnerFile(name: string, source: string, dir = work): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, source);
  return file;
}

beforeAll(async () => {
  runner = await Runner.create({ timeoutSeconds: LIMIT_SECONDS });
  work = tempDir("runner-test");
});
afterAll(() => runner.close());

describe("binding one hidden test to different files", () => {
  test("the solution passes every test, and each row carries its bug's line", async () => {
    const result = await runner.run({ exercise: adder, implFile: adder.solution });
    expect(result.status).toBe("passed");
    expect(result.tests.map((t) => t.state)).toEqual(["passed", "passed", "passed"]);
    expect(result.tests[0]!.bug).toEqual({ id: "off-by-one", summary: "Adds one too many, so every sum is wrong." });
    expect(result.tests[2]!.bug?.id).toBe("cjs-copy");
  });

  test("the stub fails every test with its own message", async () => {
    const result = await runner.run({ exercise: adder, implFile: adder.stub });
    expect(result.status).toBe("failed");
    expect(result.tests.map((t) => [t.state, t.failure?.message])).toEqual([
      ["failed", "not implemented"],
      ["failed", "not implemented"],
      ["failed", "not implemented"],
    ]);
  });

  test("failing tests leave the exit code of the process that owns the runner as it was", async () => {
    const before = process.exitCode;
    expect((await runner.run({ exercise: adder, implFile: adder.stub })).status).toBe("failed");
    expect(process.exitCode).toBe(before);
  });

  test("a mutant fails the test that names its bug, with expected and received", async () => {
    const mutant = adder.mutants.find((m) => m.bug === "off-by-one")!;
    const result = await runner.run({ exercise: adder, implFile: mutant.file });
    const failed = result.tests.filter((t) => t.state === "failed");
    expect(failed.map((t) => t.bug?.id)).toEqual(["off-by-one"]);
    expect(failed[0]!.failure).toMatchObject({ expected: "5", received: "6" });
  });

  test("a changed file is run afresh, not from the previous run's copy (invalidateFile)", async () => {
    const file = learnerFile("01-adder.ts", solution.replace("return a + b;", "return a - b;"));
    expect((await runner.run({ exercise: adder, implFile: file })).tests[0]!.state).toBe("failed");
    writeFileSync(file, solution);
    expect((await runner.run({ exercise: adder, implFile: file })).status).toBe("passed");
  });
});

test("a runner leaves SIGINT and SIGTERM to the command that owns it: creating one adds no handler", async () => {
  const count = () => [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];
  const before = count();
  const another = await Runner.create({ timeoutSeconds: LIMIT_SECONDS });
  try {
    expect(count()).toEqual(before);
  } finally {
    await another.close();
  }
});

describe("learner code that misbehaves", () => {
  test("a syntax error is one sentence with file:line:col and the code line", async () => {
    const file = learnerFile("syntax.ts", "export function add(a: number, b: number) {\n  return a + ;\n}\n");
    const result = await runner.run({ exercise: adder, implFile: file });
    expect(result.status).toBe("error");
    expect(result.error).toEqual({
      kind: "syntax",
      message: `Syntax error in ${file}:2:14: Unexpected token`,
      file,
      line: 2,
      column: 14,
      codeLine: "  return a + ;",
    });
  });

  test("a file that throws while loading says so, with the line it threw from", async () => {
    const file = learnerFile("throws.ts", `${solution}\nthrow new Error("boom at import");\n`);
    const result = await runner.run({ exercise: adder, implFile: file });
    expect(result.status).toBe("error");
    expect(result.error).toMatchObject({ kind: "import", message: "Your file threw while it was being loaded: boom at import", file });
    expect(result.error!.codeLine).toBe('throw new Error("boom at import");');
  });

  test("while (true) {} costs that run only: it is stopped at the call limit, its test says so, and the next run works", async () => {
    const file = learnerFile("spin.ts", solution.replace("return a + b;", "while (true) {}"));
    // A call limit of 1 s, not the default's 5, as the loop burns a core until it is stopped; the
    // run's own limit past it, so the call limit is what stops it.
    const callLimitMs = 1_000;
    const patient = await Runner.create({
      timeoutSeconds: callLimitMs / 1000 + LIMIT_SECONDS,
      env: { ...(process.env as Record<string, string>), [CALL_LIMIT_ENV]: String(callLimitMs) },
    });
    onTestFinished(() => patient.close());
    const secondsOf = async (implFile: string) => {
      const started = performance.now();
      const result = await patient.run({ exercise: adder, implFile });
      return { result, seconds: (performance.now() - started) / 1000 };
    };
    const before = await secondsOf(adder.solution);
    const { result, seconds } = await secondsOf(file);
    expect(result.status).toBe("failed");
    const stuck = REALM_MESSAGES.stuck(`it kept running for more than ${(callLimitMs / 1000).toFixed(1)} s without returning (an endless loop?)`);
    expect(result.tests[0]!.failure!.message).toBe(stuck);
    expect(result.tests.every((t) => t.state !== "passed")).toBe(true);
    expect(seconds).toBeGreaterThanOrEqual(callLimitMs / 1000 - 0.1);
    const after = await secondsOf(adder.solution);
    expect(after.result.status).toBe("passed");
    // Past the limit it costs about what a whole passing run costs (starting the file, then the
    // stop); a busy machine slows both alike, so the ratio holds where seconds would not.
    expect((seconds - callLimitMs / 1000) / ((before.seconds + after.seconds) / 2)).toBeLessThan(2.5);
  }, 30_000);

  test("an async loop that never yields is stopped too: the run ends at its limit and the next run works", async () => {
    const file = learnerFile("spin-later.ts", solution.replace("const block = reply.content[0];", "while (true) {}\n  const block = reply.content[0];"));
    const result = await runner.run({ exercise: adder, implFile: file });
    // The adding test ran before the loop began; the echo never returns, and the test after it finds the realm still busy.
    expect(result.tests.map((t) => t.state === "passed")).toEqual([true, false, false]);
    expect((await runner.run({ exercise: adder, implFile: adder.solution })).status).toBe("passed");
  }, 30_000);

  test("process.exit in learner code fails the test, says so, and ends nothing else", async () => {
    const file = learnerFile("exits.ts", solution.replace("return a + b;", "process.exit(0);"));
    const result = await runner.run({ exercise: adder, implFile: file });
    expect(result.tests[0]!.failure!.message).toBe(REALM_MESSAGES.exited(0));
    expect((await runner.run({ exercise: adder, implFile: adder.solution })).status).toBe("passed");
  });

  test("what the learner's code prints is the output of the test it printed during", async () => {
    const file = learnerFile("prints.ts", solution.replace("return a + b;", "console.log(`adding ${a} and ${b}`);\n  return a + b;"));
    const result = await runner.run({ exercise: adder, implFile: file });
    expect(result.status).toBe("passed");
    // The echo test's echoSum adds too; the rate-limit test adds nothing, so it printed nothing.
    expect(result.tests.map((t) => t.output)).toEqual(["adding 2 and 3\n", "adding 2 and 3\n", undefined]);
  });

  test("what the hidden test prints is its report, failing or passing; what the learner's code prints is its output, never its report", async () => {
    const file = learnerFile("prints-wrong.ts", solution.replace("return a + b;", "console.log(`adding ${a} and ${b}`);\n  return a + b + 1;"));
    const wrong = await runner.run({ exercise: adder, implFile: file });
    expect(wrong.tests.map((t) => [t.state, t.report, t.output])).toEqual([
      ["failed", "add(2, 3) returned 6\n", "adding 2 and 3\n"],
      ["failed", undefined, "adding 2 and 3\n"],
      ["passed", undefined, undefined],
    ]);
    const right = await runner.run({ exercise: adder, implFile: adder.solution });
    expect(right.tests.map((t) => [t.state, t.report, t.output])).toEqual([
      ["passed", "add(2, 3) returned 5\n", undefined],
      ["passed", undefined, undefined],
      ["passed", undefined, undefined],
    ]);
  });

  test("tests that run side by side (describe.concurrent) each get what their own work printed, output and report alike", async () => {
    const dir = join(work, "side-by-side");
    const hiddenTest = learnerFile(
      "hidden.test.ts",
      `import { describe, expect, test } from "vitest";
       import { relay } from "lab:impl";
       let asked = 0;
       let bothAsked!: () => void;
       const met = new Promise<void>((resolve) => (bothAsked = resolve));
       // Neither reply comes before both tests have asked: their work interleaves.
       async function reply(name: string): Promise<string> {
         if (++asked === 2) bothAsked();
         await met;
         return name.toUpperCase();
       }
       describe.concurrent("side by side", () => {
         for (const name of ["a", "b"]) {
           test(name, async () => {
             console.log(name + " reports");
             expect(await relay(name, reply)).toBe(name.toUpperCase());
             console.log(name + " reports again");
           });
         }
       });`,
      dir,
    );
    const file = learnerFile(
      "relay.ts",
      `export async function relay(name: string, reply: (name: string) => Promise<string>): Promise<string> {
         console.log(name + " asks");
         const heard = await reply(name);
         await new Promise((done) => setTimeout(done, 0));
         console.log(name + " heard " + heard);
         return heard;
       }`,
    );
    const result = await runner.run({ exercise: { ...adder, hiddenTest }, implFile: file });
    expect(result.tests.map((t) => [t.name, t.state, t.output, t.report])).toEqual([
      ["a", "passed", "a asks\na heard A\n", "a reports\na reports again\n"],
      ["b", "passed", "b asks\nb heard B\n", "b reports\nb reports again\n"],
    ]);
  });

  test("learner code runs in a child process, never in the process that owns the runner", async () => {
    const pidFile = join(work, "pid.txt");
    const file = learnerFile(
      "pid.ts",
      `import { writeFileSync } from "node:fs";\n${solution.replace("return a + b;", `writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));\n  return a + b;`)}`,
    );
    await runner.run({ exercise: adder, implFile: file });
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
  });
});

describe("one instance of @anthropic-ai/sdk for test and learner", () => {
  test("a file outside the lab, with no node_modules near it, sees the test's error classes", async () => {
    const file = learnerFile("01-adder.ts", solution, tempDir("elsewhere"));
    const result = await runner.run({ exercise: adder, implFile: file });
    expect(result.tests[2]).toMatchObject({ state: "passed" });
  });

  test("a file whose folder has its own copy of the SDK still gets the lab's copy", async () => {
    const dir = tempDir("own-sdk");
    cpSync(join(import.meta.dirname, "../../../node_modules/@anthropic-ai/sdk"), join(dir, "node_modules/@anthropic-ai/sdk"), { recursive: true });
    const result = await runner.run({ exercise: adder, implFile: learnerFile("01-adder.ts", solution, dir) });
    expect(result.tests[2]).toMatchObject({ state: "passed" });
  });

  test('a file in a "type": "commonjs" package sees the same classes too', async () => {
    const dir = tempDir("cjs");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "commonjs" }));
    const result = await runner.run({ exercise: adder, implFile: learnerFile("01-adder.ts", solution, dir) });
    expect(result.tests[2]).toMatchObject({ state: "passed" });
  });
});

describe("events and batches", () => {
  test("a run reports started, collected, each test, then finished, in that order", async () => {
    const events: RunEvent["type"][] = [];
    await runner.run({ exercise: adder, implFile: adder.solution }, (e) => events.push(e.type));
    expect(events[0]).toBe("run-started");
    expect(events[1]).toBe("tests-collected");
    expect(events.at(-1)).toBe("run-finished");
    expect(events.filter((e) => e === "test-finished")).toHaveLength(3);
    expect(events.indexOf("test-started")).toBeLessThan(events.indexOf("test-finished"));
  });

  test("runMany gives each file the result a single run would", async () => {
    const files = [adder.solution, adder.stub, ...adder.mutants.map((m) => m.file)];
    const results = await runner.runMany(files.map((implFile) => ({ exercise: adder, implFile })));
    expect(adder.mutants.map((m) => m.bug)).toEqual(["cjs-copy", "no-echo", "off-by-one"]);
    expect(results.map((r) => [r.status, r.passed])).toEqual([
      ["passed", 3],
      ["failed", 0],
      ["failed", 2],
      ["failed", 2],
      ["failed", 2],
    ]);
  });
});

describe("a crash in a batch", () => {
  test("counts against the file whose worker died, never against the others in the batch", async () => {
    const crasher = learnerFile("crash.ts", solution.replace("return a + b;", 'process.kill(process.pid, "SIGKILL");\n  return a + b;'));
    const files = [adder.solution, crasher, adder.solution];
    const results = await runner.runMany(files.map((implFile) => ({ exercise: adder, implFile })));
    expect(results.map((r) => r.status)).toEqual(["passed", "failed", "passed"]);
    expect(results[1]!.error).toEqual({ kind: "crash", message: "The test process ended before the tests finished (SIGKILL)." });
    expect(results[0]!.error).toBeNull();
    expect(results[2]!.error).toBeNull();
  });
});

describe("abort", () => {
  test("abort() right after a run starts ends it at once and leaves no worker running learner code", async () => {
    // The yardstick for "at once": a whole passing run on the warm runner, timed now.
    const warm = performance.now();
    await runner.run({ exercise: adder, implFile: adder.solution });
    const runSeconds = (performance.now() - warm) / 1000;
    const own = await Runner.create({ timeoutSeconds: 30 });
    try {
      const pidFile = join(work, "aborted.pid");
      const file = learnerFile(
        "abort.ts",
        `import { readlinkSync, writeFileSync } from "node:fs";\n${solution.replace("return a + b;", `writeFileSync(${JSON.stringify(pidFile)}, ${OUTER_PID});\n  while (true) {}`)}`,
      );
      const started = performance.now();
      const run = own.run({ exercise: adder, implFile: file });
      own.abort();
      await run.catch(() => undefined);
      // About 1/30 of a run alone; waiting for the 30 s limit would be dozens of runs.
      expect((performance.now() - started) / 1000 / runSeconds).toBeLessThan(1);
      await new Promise((r) => setTimeout(r, 500));
      // Either the learner's code never started, or the process it ran in is gone.
      const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : null;
      if (pid !== null) expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      await own.close();
    }
  }, 30_000);
});
