/** What a hidden test prints on purpose, kept per test (checker/realm/test-report.ts), on a real Console. */
import { Console } from "node:console";
import { PassThrough } from "node:stream";
import { expect, test } from "vitest";
import { OUTPUT_CAP, outputCut } from "../../../checker/realm/capped-text.js";
import { TestReport } from "../../../checker/realm/test-report.js";

function console() {
  const stream = new PassThrough();
  let written = "";
  stream.on("data", (chunk: Buffer) => (written += chunk.toString()));
  return { console: new Console({ stdout: stream, stderr: stream }), written: () => written };
}

/** The test whose work runs now, set by hand (in a run, the async context says: test-context.ts). */
function running() {
  let now: number | undefined;
  return { current: () => now, set: (test: number | undefined) => (now = test) };
}

test("log and info are kept as console would format them; warn and error still reach the console; after take it is the console's own again", async () => {
  const c = console();
  const at = running();
  const report = new TestReport(c.console, at.current);
  report.start(1);
  at.set(1);
  c.console.log("%s of %d pairs", "hits", 12, { at: 0.92 });
  c.console.info("threshold 0.9");
  c.console.warn("a warning");
  expect(report.take(1)).toBe("hits of 12 pairs { at: 0.92 }\nthreshold 0.9\n");
  c.console.log("after the test");
  await new Promise((resolve) => setImmediate(resolve));
  expect(c.written()).toBe("a warning\nafter the test\n");
  expect(report.take(1)).toBe("");
});

test("a report is capped like output: the rest is counted where it was cut", () => {
  const c = console();
  const at = running();
  const report = new TestReport(c.console, at.current);
  report.start(1);
  at.set(1);
  c.console.log("x".repeat(OUTPUT_CAP + 122));
  expect(report.take(1)).toBe(`${"x".repeat(OUTPUT_CAP)}${outputCut(123)}`);
});

test("tests side by side each keep what their own work printed; what no kept test prints reaches the console", async () => {
  const c = console();
  const at = running();
  const report = new TestReport(c.console, at.current);
  report.start(1);
  report.start(2);
  at.set(1);
  c.console.log("first test");
  at.set(2);
  c.console.log("second test");
  at.set(1);
  c.console.info("first again");
  at.set(undefined);
  c.console.log("no test's");
  at.set(3);
  c.console.log("a test not kept");
  expect(report.take(2)).toBe("second test\n");
  at.set(2);
  c.console.log("second, once taken");
  expect(report.take(1)).toBe("first test\nfirst again\n");
  await new Promise((resolve) => setImmediate(resolve));
  expect(c.written()).toBe("no test's\na test not kept\nsecond, once taken\n");
});
