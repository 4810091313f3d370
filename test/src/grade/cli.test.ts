import { expect, test } from "vitest";
import { main } from "../../../src/cli/main.js";
import { GRADE_ERRORS } from "../../../src/grade/messages.js";
import { captureIo } from "../../support/io.js";
import { tempDir } from "./support.js";

const cwd = () => tempDir("cli");

test("lab grade --help lists every flag and one example", async () => {
  const io = captureIo(cwd());
  expect(await main(["node", "lab", "grade", "--help"], io)).toBe(0);
  for (const flag of [
    "--exercises <list>",
    "--jobs <n>",
    "--timeout <seconds>",
    "--memory <mb>",
    "--format <format>",
    "--out <file>",
    "--fresh",
    "--shard <i/n>",
    "--merge <dirs...>",
  ]) {
    expect(io.out()).toContain(flag);
  }
  expect(io.out()).toContain("Example:\n  $ lab grade ./class --exercises 1-3 --format md --out grades.md\n");
});

test("lab --help shows lab grade among the examples", async () => {
  const io = captureIo(cwd());
  expect(await main(["node", "lab", "--help"], io)).toBe(0);
  expect(io.out()).toContain("$ lab grade ./class               grade every learner's files in ./class, one isolated run each");
});

test.each([
  [["grade"], GRADE_ERRORS.noDir],
  [["grade", "/nonexistent/class"], GRADE_ERRORS.noSuchDir("/nonexistent/class")],
  [["grade", "/nonexistent/class", "--format", "pdf"], GRADE_ERRORS.badFormat("pdf")],
  [["grade", "--merge", "a", "b", "--shard", "1/2"], GRADE_ERRORS.mergeOnlyFlags(["--shard"])],
])("lab %j: exit 2 and one sentence on stderr, nothing on stdout", async (args, message) => {
  const io = captureIo(cwd());
  expect(await main(["node", "lab", ...args], io)).toBe(2);
  expect(io.err()).toBe(`${message}\n`);
  expect(io.out()).toBe("");
});
