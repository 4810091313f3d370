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

test("log and info are kept as console would format them; warn and error still reach the console; after take it is the console's own again", async () => {
  const c = console();
  const report = new TestReport();
  report.start(c.console);
  c.console.log("%s of %d pairs", "hits", 12, { at: 0.92 });
  c.console.info("threshold 0.9");
  c.console.warn("a warning");
  expect(report.take()).toBe("hits of 12 pairs { at: 0.92 }\nthreshold 0.9\n");
  c.console.log("after the test");
  await new Promise((resolve) => setImmediate(resolve));
  expect(c.written()).toBe("a warning\nafter the test\n");
  expect(report.take()).toBe("");
});

test("a report is capped like output: the rest is counted where it was cut", () => {
  const c = console();
  const report = new TestReport();
  report.start(c.console);
  c.console.log("x".repeat(OUTPUT_CAP + 122));
  expect(report.take()).toBe(`${"x".repeat(OUTPUT_CAP)}${outputCut(123)}`);
});

test("each start begins an empty report, though the last test's was never taken", () => {
  const c = console();
  const report = new TestReport();
  report.start(c.console);
  c.console.log("first test");
  report.start(c.console);
  c.console.log("second test");
  expect(report.take()).toBe("second test\n");
});
