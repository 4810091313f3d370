import { describe, expect, test } from "vitest";
import { refusedSignal, refuseForeignSignals } from "../../../../checker/run/walls/signal-wall.js";

/** A stand-in process whose _kill records instead of signalling: nothing real is ever sent. */
function fakeProcess(pid: number) {
  const sent: [number, number][] = [];
  const target = { pid, _kill: (to: number, signal: number) => (sent.push([to, signal]), 0) };
  refuseForeignSignals(target as unknown as NodeJS.Process);
  return { target: target as unknown as { pid: number; _kill: (to: number, signal: number) => number }, sent };
}

describe("refuseForeignSignals", () => {
  test.each([
    [0, "its process group"],
    [-1, "every process"],
    [4241, "process 4241"],
    [-4242, "process -4242"],
  ])("refuses to signal %i (%s) and sends nothing", (pid, what) => {
    const { target, sent } = fakeProcess(4242);
    expect(() => target._kill(pid, 9)).toThrow(`lab refused to signal ${what}: your file may signal only its own process.`);
    expect(refusedSignal(pid)).toContain(what);
    expect(sent).toEqual([]);
  });

  test("lets a process signal itself", () => {
    const { target, sent } = fakeProcess(4242);
    expect(target._kill(4242, 15)).toBe(0);
    expect(sent).toEqual([[4242, 15]]);
  });

  test("cannot be undone by learner code: the replacement is neither writable nor configurable", () => {
    const { target, sent } = fakeProcess(4242);
    const original = () => 0;
    expect(() => Object.defineProperty(target, "_kill", { value: original })).toThrow(TypeError);
    expect(() => {
      "use strict";
      (target as { _kill: unknown })._kill = original;
    }).toThrow(TypeError);
    expect(() => target._kill(1, 9)).toThrow(/lab refused/);
    expect(sent).toEqual([]);
  });
});
