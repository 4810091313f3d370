/** `lab grade --fresh` cut short, then run again without --fresh: the rest is graded, nothing older reused. */
import { tmpdir } from "node:os";
import { expect, test } from "vitest";
import { gradeCommand, INTERRUPTED } from "../../../src/commands/grade.js";
import type { Signals } from "../../../src/grade/grade-class.js";
import { GRADE_NOTES } from "../../../src/grade/messages.js";
import { captureIo } from "../../support/io.js";
import { classCopy, gradeHere, PATHS, resultLines } from "./support.js";

/** Signals that deliver a SIGINT of their own the moment `when` holds for what was printed on stderr. */
function interruptWhen(io: ReturnType<typeof captureIo>, when: (err: string) => boolean): Signals {
  const listeners = new Set<() => void>();
  let sent = false;
  io.stderr.on("data", () => {
    if (sent || !when(io.err())) return;
    sent = true;
    for (const listener of listeners) listener();
  });
  return {
    on: (_signal, listener) => listeners.add(listener),
    off: (_signal, listener) => listeners.delete(listener),
  };
}

test("an interrupted --fresh grading, run again without --fresh, grades only the pairs it had not re-graded", async () => {
  const dir = classCopy();
  const first = await gradeHere(dir, { timeout: "10", jobs: "1" });
  expect(first.err.split("\n")[0]).toBe(GRADE_NOTES.planned(7, 0, 3));
  const before = resultLines(dir).length;

  const io = captureIo(tmpdir());
  const signals = interruptWhen(io, (err) => err.includes("[2/7]"));
  const fresh = await gradeCommand(dir, { timeout: "10", jobs: "1", fresh: true }, io, PATHS, signals);
  expect(fresh).toBe(INTERRUPTED);
  expect(io.err().split("\n")[0]).toBe(GRADE_NOTES.planned(7, 3, 0));
  const regraded = resultLines(dir)
    .slice(before)
    .map((r) => r.key);
  expect(regraded.length).toBeGreaterThanOrEqual(2);
  expect(regraded.length).toBeLessThan(7);

  const rerun = await gradeHere(dir, { timeout: "10", jobs: "1" });
  expect(rerun.code).toBe(0);
  expect(rerun.err.split("\n")[0], "the pairs the fresh run did not reach run now").toBe(GRADE_NOTES.planned(7 - regraded.length, 3 + regraded.length, 0));
  const afterRerun = resultLines(dir)
    .slice(before + regraded.length)
    .map((r) => r.key);
  expect(
    afterRerun.filter((key) => regraded.includes(key)),
    "nothing the fresh run re-graded runs again",
  ).toEqual([]);

  const settled = await gradeHere(dir, { timeout: "10", jobs: "1" });
  expect(settled.err.split("\n")[0], "once every pair is re-graded, everything is reused again").toBe(GRADE_NOTES.planned(0, 10, 0));
}, 120_000);
