import { describe, expect, test } from "vitest";
import {
  drillReducer,
  elapsedMs,
  initialDrillState,
  interviewDone,
  interviewScore,
  isGreen,
  isLocked,
  isAttempting,
  isTiming,
  type DrillAction,
  type DrillState,
} from "../../../src/drill/drill-state.js";

/** The drill file as written; every other version is the learner's. */
const GIVEN = "export function f() { throw }";
const QUESTIONS = [
  { q: "Why one message?", a: "Batching." },
  { q: "Why the whole content?", a: "Ids." },
  { q: "Why throw on max_tokens?", a: "Truncation." },
];
const fresh = (over: Parameters<typeof initialDrillState>[0] extends infer I ? Partial<I> : never = {}) =>
  initialDrillState({
    exercise: { number: 1, title: "The tool-calling loop" },
    attempt: 3,
    file: "/ws/drills/01-tool-loop.3.ts",
    given: GIVEN,
    openedAt: 0,
    ...over,
  });
const after = (state: DrillState, ...actions: DrillAction[]) => actions.reduce(drillReducer, state);
/** A run from start to finish, of `version` of the file (by default one written just before it). */
const run = (startedAt: number, finishedAt: number, passed: boolean, version: string = `v${startedAt}`): DrillAction[] => [
  { type: "run-started", at: startedAt, version },
  { type: "run-finished", at: finishedAt, passed },
];

describe("the clock", () => {
  test("starts when the drill opens: it runs before any save, and the first run of the file as given counts for nothing", () => {
    const state = after(fresh({ openedAt: 1_000 }), ...run(1_000, 1_900, false, GIVEN));
    expect(state.startedAt).toBe(1_000);
    expect(state.runs).toBe(0);
    expect(state.changed).toBe(false);
    expect(elapsedMs(state, 61_000)).toBe(60_000);
    expect(isTiming(state)).toBe(true);
    expect(isAttempting(state)).toBe(false);
  });

  test("saves do not move it; the first one makes an attempt of it", () => {
    const state = after(fresh(), ...run(0, 900, false, GIVEN), { type: "saved", at: 5_000 }, { type: "saved", at: 9_000 });
    expect(state.startedAt).toBe(0);
    expect(state.changed).toBe(true);
    expect(isAttempting(state)).toBe(true);
    expect(elapsedMs(state, 12_500)).toBe(12_500);
  });

  test("stops at the first run where every test passes; failing runs before it count, later runs do not move it", () => {
    let state = after(fresh(), { type: "saved", at: 1_000 }, ...run(1_050, 1_900, false), { type: "saved", at: 30_000 }, ...run(30_050, 30_700, true));
    expect(isGreen(state)).toBe(true);
    expect(state.stoppedAt).toBe(30_700);
    expect(state.runs).toBe(2);
    expect(elapsedMs(state, 999_999)).toBe(30_700);
    state = after(state, { type: "saved", at: 40_000 }, ...run(40_050, 40_500, false), ...run(41_000, 41_400, true));
    expect(state.stoppedAt).toBe(30_700);
    expect(state.runs).toBe(2);
  });

  test("a green run of the file as the drill wrote it does not stop it", () => {
    const state = after(fresh(), { type: "run-started", at: 0, version: GIVEN }, { type: "saved", at: 100 }, { type: "run-finished", at: 500, passed: true });
    expect(isGreen(state)).toBe(false);
    expect(isTiming(state)).toBe(true);
  });

  test("a run of a changed file is an attempt even when the watcher reports the save later", () => {
    const state = after(fresh(), ...run(0, 900, false, GIVEN), { type: "run-started", at: 1_000, version: "mine" }, { type: "saved", at: 1_200 });
    expect(state.changed).toBe(true);
    expect(state.runs).toBe(1);
  });
});

describe("pasting", () => {
  test("green faster than its code can be typed is pasted: 1,500 characters in 20 s", () => {
    const state = after(fresh(), ...run(19_000, 20_000, true, "pasted"), { type: "measured", lines: 20, chars: 1_500 });
    expect(isGreen(state)).toBe(true);
    expect(state.pasted).toBe(true);
  });

  test("the same code green after the time typing it takes (1,500 characters at 15 a second is 100 s) is not pasted", () => {
    const state = after(fresh(), ...run(110_000, 120_000, true, "typed"), { type: "measured", lines: 20, chars: 1_500 });
    expect(state.pasted).toBe(false);
  });
});

describe("runs", () => {
  test("count new versions of the file: running the same code again is no new try", () => {
    const state = after(
      fresh(),
      { type: "saved", at: 0 },
      ...run(10, 20, false, "A"),
      ...run(30, 40, false, "A"), // the watcher's second run for one save, or r
      ...run(50, 60, false, "B"),
      ...run(70, 80, false, "A"),
    );
    expect(state.runs).toBe(3);
  });
});

describe("peeking", () => {
  test("locked things ask first; going back changes nothing; opening one marks the attempt and unlocks the rest", () => {
    let state = fresh();
    expect(isLocked(state)).toBe(true);
    state = after(state, { type: "peek-asked", what: "tier 1" });
    expect(state.confirm).toBe("tier 1");
    state = after(state, { type: "peek-cancelled" });
    expect(state).toEqual(fresh());
    state = after(state, { type: "peek-asked", what: "hint" }, { type: "peeked", what: "hint" }, { type: "peeked", what: "lesson" });
    expect(state.peeked).toBe(true);
    expect(state.peeks).toEqual(["hint", "lesson"]);
    expect(state.confirm).toBeNull();
    expect(isLocked(state)).toBe(false);
  });

  test("--peek: peeked and unlocked from the start", () => {
    const state = fresh({ peek: true });
    expect(state.peeked).toBe(true);
    expect(state.peeks).toEqual(["--peek"]);
    expect(isLocked(state)).toBe(false);
  });

  test("after green nothing is locked, and looking is no longer peeking", () => {
    const state = after(fresh(), { type: "saved", at: 0 }, ...run(10, 20, true), { type: "peeked", what: "solution" });
    expect(isLocked(state)).toBe(false);
    expect(state.peeked).toBe(false);
    expect(state.peeks).toEqual([]);
  });
});

describe("the interview", () => {
  const green = (questions = QUESTIONS) => after(fresh({ questions }), { type: "saved", at: 0 }, ...run(10, 20, true));

  test("starts at green only in interview mode", () => {
    expect(green().interview?.index).toBe(0);
    expect(after(fresh(), { type: "saved", at: 0 }, ...run(10, 20, true)).interview).toBeNull();
    expect(fresh({ questions: QUESTIONS }).interview).toBeNull();
  });

  test("the model answer comes only after the learner's own; each mark moves to the next question", () => {
    let state = after(green(), { type: "answer-submitted" });
    expect(state.interview?.stage).toBe("typing"); // an empty answer cannot be submitted
    state = after(state, { type: "answer-marked", right: true });
    expect(state.interview?.marks).toEqual([]); // nothing to mark before an answer
    state = after(state, { type: "answer-typed", answer: "it teaches batching" }, { type: "answer-submitted" });
    expect(state.interview?.stage).toBe("judging");
    state = after(state, { type: "answer-typed", answer: "changed my mind" });
    expect(state.interview?.answer).toBe("it teaches batching");
    state = after(state, { type: "answer-marked", right: true });
    expect(state.interview).toMatchObject({ index: 1, answer: "", stage: "typing", marks: [true] });
    state = after(state, { type: "answer-typed", answer: "ids" }, { type: "answer-submitted" }, { type: "answer-marked", right: false });
    state = after(state, { type: "answer-typed", answer: "truncation" }, { type: "answer-submitted" }, { type: "answer-marked", right: true });
    expect(interviewDone(state)).toBe(true);
    expect(interviewScore(state)).toEqual({ right: 2, asked: 3 });
    expect(after(state, { type: "answer-marked", right: true })).toBe(state);
  });
});
