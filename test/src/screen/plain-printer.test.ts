import { expect, test } from "vitest";
import { plainPrinter } from "../../../src/screen/plain-printer.js";
import { FakeStdout } from "./streams.js";
import { failed, passed, result } from "./fixtures.js";

test("the same events as the screen, as plain lines with no cursor codes", () => {
  const stream = new FakeStdout();
  const print = plainPrinter(stream as never, { number: 1, stub: "/nowhere/stub.ts" });
  print({ type: "run-started", exercise: "01-adder", file: "f" });
  print({ type: "tests-collected", names: ["a", "b"] });
  print({ type: "test-started", name: "a" });
  print({ type: "run-finished", result: result([passed("a"), failed("b")]) });
  print({ type: "watcher-silent" });
  print({ type: "file-missing", file: "/ws/f.ts" });
  print({ type: "watch-error", message: "EMFILE" });
  print({ type: "run-crashed", message: "boom" });
  expect(stream.frames.join("")).toBe(
    [
      "Running the hidden tests…",
      "",
      "  PASS  a (3 ms)",
      "  FAIL  b",
      "        instead: expected 6 to be 5",
      "        expected: 5",
      "        received: 6",
      "        this test guards against the off-by-one bug: Adds one too many, so every sum is wrong.",
      "",
      "1 passed, 1 failed",
      "Your saves are not reaching lab as file events (common on network and VM folders); quit and run lab start 1 --poll.",
      "Your file /ws/f.ts is gone: save it again, or run lab reset 1 to start from the stub.",
      "Watching your file failed (EMFILE); press r to rerun by hand.",
      "The test runner failed, not your code: boom.",
      "",
    ].join("\n"),
  );
});
