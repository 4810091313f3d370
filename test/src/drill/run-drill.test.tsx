import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeEach, expect, test } from "vitest";
import { loadExercises, type Exercise } from "../../../checker/model/exercises.js";
import type { RunResult } from "../../../checker/model/result.js";
import { DRILL_MESSAGES } from "../../../src/drill/messages.js";
import type { DrillSession } from "../../../src/drill/run-drill.js";
import { bestDrillSeconds, drillsFile } from "../../../src/progress/drills.js";
import { importScreen } from "../../../src/screen/import-screen.js";
import type { SessionEvent, SessionListener } from "../../../src/watch/watch-session.js";
import { tempDir } from "../../support/temp-dir.js";
import { failed, passed, result } from "../screen/fixtures.js";
import { fakeIo } from "../screen/streams.js";
import { until } from "../../support/until.js";

// Loaded as `lab drill` loads it, so Ink draws live frames even where CI is set.
const { runDrill } = await importScreen(() => import("../../../src/drill/run-drill.js"));
const fixtures = resolve(import.meta.dirname, "../../fixtures/lab");
const fixture = loadExercises(join(fixtures, "exercises"), join(fixtures, "solutions"))[0]!;
const solution = readFileSync(fixture.solution, "utf8");
const AT = new Date("2026-03-01T10:00:00.000Z");
const targets = { seconds: 600, lines: 25 };
const red = result([passed("adds two numbers (off-by-one bug)"), failed("asks the model to echo the sum (no-echo bug)")]);
const green = result([passed("adds two numbers (off-by-one bug)"), passed("asks the model to echo the sum (no-echo bug)")]);
/** add() done, the rest still throwing: some rows stay red. */
const halfway = solution.replace(/(export async function echoSum[^{]*\{)[\s\S]*$/, '$1\n  throw new Error("not yet");\n}\n');

let workspace: string;
beforeEach(() => void (workspace = tempDir("drill")));

/**
 * A drill on a fake terminal, driven by hand: `clock` is the drill's clock (ms), `emit` plays
 * the watch session's events, keys go to stdin. Nothing waits on real time.
 */
function setUp(options: { peek?: boolean; interview?: boolean; exercise?: Exercise; tty?: boolean; live?: () => string } = {}) {
  const io = fakeIo({ tty: options.tty ?? true });
  const clock = { ms: 0 };
  const listeners = new Set<SessionListener>();
  let reruns = 0;
  let closedWith: { stopRun?: boolean } | undefined;
  let drillFile = "";
  const session: DrillSession = {
    subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
    rerun: () => void reruns++,
    running: false,
    close: async (o) => void (closedWith = o),
  };
  const exit = runDrill({
    io,
    exercise: options.exercise ?? fixture,
    workspaceDir: workspace,
    runner: { run: () => Promise.reject(new Error("the fake session runs nothing")) },
    poll: false,
    peek: options.peek ?? false,
    interview: options.interview ?? false,
    targets,
    now: () => clock.ms,
    date: () => AT,
    startSession: async (file) => ((drillFile = file), session),
    tickMs: 0,
    ...(options.live ? { live: options.live } : {}),
  });
  const emit = (event: SessionEvent) => listeners.forEach((l) => l(event));
  /** One run from start to finish at the clock's current time. */
  const runs = (r: RunResult) => {
    emit({ type: "run-started", exercise: "01-adder", file: drillFile });
    emit({ type: "run-finished", result: r });
  };
  const shows = (text: string) => until(() => io.stdout.lastFrame().includes(text), `the screen shows "${text}"`);
  const out = () => io.stdout.frames.join("");
  const lines = () =>
    existsSync(drillsFile(workspace))
      ? readFileSync(drillsFile(workspace), "utf8")
          .trimEnd()
          .split("\n")
          .map((l) => JSON.parse(l))
      : [];
  return { io, clock, emit, runs, shows, exit, out, lines, file: () => drillFile, reruns: () => reruns, closedWith: () => closedWith };
}

test("the clock starts when the drill opens, not at the first save, and stops at the first all-green run; one line is recorded", async () => {
  const d = setUp();
  await d.shows("q quit");
  expect(d.reruns()).toBe(1); // the first run shows the tests
  d.clock.ms = 2_000;
  d.runs(red);
  d.clock.ms = 45_000; // a long think before the first save counts: recall starts when the task is shown
  writeFileSync(d.file(), halfway);
  d.emit({ type: "save-seen" });
  d.clock.ms = 45_050;
  d.runs(red);
  d.runs(red); // the same code again (r): not another try
  d.clock.ms = 125_000;
  d.emit({ type: "save-seen" });
  writeFileSync(d.file(), solution);
  d.clock.ms = 125_400;
  d.runs(green);
  await d.shows("Green in 2:05 · 8 lines · 2 runs · no peeking");
  // Written the moment it turned green: a terminal closed now loses nothing.
  expect(d.lines()).toEqual([expect.objectContaining({ exercise: 1, seconds: 125.4, passed: true, lines: 8, runs: 2 })]);
  d.clock.ms = 500_000; // the screen stays up; the clock stays stopped
  d.io.stdin.write("q");
  expect(await d.exit).toBe(0);
  expect(d.closedWith()).toEqual({ stopRun: true });
  expect(d.lines()).toEqual([
    {
      exercise: 1,
      seconds: 125.4,
      passed: true,
      abandoned: false,
      peeked: false,
      lines: 8,
      runs: 2,
      attempt: 1,
      at: AT.toISOString(),
      file: "drills/01-adder.1.ts",
    },
  ]);
  expect(d.out()).toContain("Green in 2:05 · 8 lines · 2 runs · no peeking\n");
  expect(d.out()).toContain(`Recorded in ${drillsFile(workspace)}.\n`);
});

test("quitting before green records an abandoned attempt with its elapsed time", async () => {
  const d = setUp();
  await d.shows("q quit");
  d.clock.ms = 10_000;
  writeFileSync(d.file(), halfway);
  d.emit({ type: "save-seen" });
  d.runs(red);
  await d.shows("q give up (recorded)");
  d.clock.ms = 70_500;
  d.io.stdin.write("q"); // one q asks first
  await d.shows("Give up this attempt? It is recorded as abandoned, with the time so far.");
  await d.shows("y give up · any other key: keep going");
  d.io.stdin.write("n");
  await d.shows("q give up (recorded)");
  expect(d.io.stdout.lastFrame()).not.toContain("Give up this attempt?");
  d.io.stdin.write("q");
  await d.shows("y give up · any other key: keep going");
  d.io.stdin.write("y");
  expect(await d.exit).toBe(0);
  expect(d.lines()).toEqual([expect.objectContaining({ exercise: 1, seconds: 70.5, passed: false, abandoned: true, peeked: false, runs: 1, attempt: 1 })]);
  expect(d.out()).toContain("Gave up after 1:11 · ");
});

test("peeking is recorded: a locked hint asks first, y opens it and marks the attempt", async () => {
  const d = setUp();
  await d.shows("h l 1 s locked (opening one marks the attempt peeked)");
  d.emit({ type: "save-seen" });
  d.io.stdin.write("h");
  await d.shows("The next hint is locked during a drill: opening it marks this attempt as peeked."); // the line wraps after this
  await d.shows("y open it · any other key: back");
  d.io.stdin.write("n");
  await d.shows("h l 1 s locked");
  expect(d.io.stdout.lastFrame()).not.toContain("Hint 1");
  d.io.stdin.write("1");
  await d.shows("The tier 1 reference (pseudocode) is locked during a drill");
  d.io.stdin.write("y");
  await d.shows("Reference tier 1: pseudocode");
  await d.shows("Peeked: tier 1. This attempt will not count as a personal best.");
  d.io.stdin.write("\u001B");
  await until(() => !d.io.stdout.lastFrame().includes("Reference tier 1"), "escape closes the pane");
  d.io.stdin.write("h"); // unlocked now: no second question
  await d.shows(`Hint 1 of 2: ${fixture.hints[0]}`);
  d.clock.ms = 30_000;
  writeFileSync(d.file(), solution);
  d.runs(green);
  await d.shows("Green in 0:30 · 8 lines · 1 run · peeked");
  d.io.stdin.write("q");
  await d.exit;
  expect(d.lines()).toEqual([expect.objectContaining({ passed: true, peeked: true, peeks: ["tier 1", "hint"], seconds: 30 })]);
});

test("--peek: everything opens without asking, and the attempt is peeked from the start", async () => {
  const d = setUp({ peek: true });
  await d.shows("h hint · l lesson · 1 reference · s solution");
  d.io.stdin.write("s");
  await d.shows("Solution: A fixture exercise");
  d.emit({ type: "save-seen" });
  d.io.stdin.write("q");
  await d.shows("y give up · any other key: keep going");
  d.io.stdin.write("y");
  await d.exit;
  expect(d.out()).toContain("--peek: the lesson, hints, references and solution are open, and this attempt is marked as peeked.");
  expect(d.lines()).toEqual([expect.objectContaining({ passed: false, peeked: true, peeks: ["--peek", "solution"] })]);
});

test("quitting before changing the drill file records nothing and removes it, however long the clock ran", async () => {
  const d = setUp();
  await d.shows("q quit");
  d.clock.ms = 300_000;
  d.io.stdin.write("q"); // nothing to give up: no question
  expect(await d.exit).toBe(0);
  expect(d.lines()).toEqual([]);
  expect(existsSync(d.file())).toBe(false);
  expect(d.out()).toContain(`You quit before changing the drill file, so nothing was recorded and the untouched file ${d.file()} was removed.`);
});

test("interview mode: after green, each question takes an answer, then shows the model answer to be marked; the score is recorded", async () => {
  const questions = [
    { q: "Why one message?", a: "The model copies what it sees." },
    { q: "Why the whole content?", a: "The ids must match." },
    { q: "Why throw?", a: "A cut-off reply is not an answer." },
  ];
  const d = setUp({ interview: true, exercise: { ...fixture, questions } });
  await d.shows("q quit");
  d.emit({ type: "save-seen" });
  d.clock.ms = 5_000;
  d.runs(green);
  await d.shows("Question 1 of 3: Why one message?");
  expect(d.io.stdout.lastFrame()).not.toContain("The model copies what it sees.");
  d.io.stdin.write("batching q");
  await d.shows("> batching q");
  d.io.stdin.write("\r");
  await d.shows("Model answer: The model copies what it sees.");
  d.io.stdin.write("yids\r"); // a mark and the next answer, arriving as one chunk
  await d.shows("Question 2 of 3: Why the whole content?");
  await d.shows("Model answer: The ids must match.");
  d.io.stdin.write("n");
  await d.shows("Question 3 of 3: Why throw?");
  d.io.stdin.write("truncation\r");
  await d.shows("Was yours right? y yes · n no");
  d.io.stdin.write("y");
  await d.shows("Interview done: 2 of 3 right. Press q to finish.");
  d.io.stdin.write("q");
  await d.exit;
  expect(d.lines()).toEqual([expect.objectContaining({ passed: true, interview: { right: 2, asked: 3 } })]);
  expect(d.out()).toContain("Interview: 2 of 3 right.\n");
});

test("a corrupt history line is named on stderr; the attempt still compares with the rest and is appended after it", async () => {
  mkdirSync(join(workspace, ".lab"));
  writeFileSync(drillsFile(workspace), `${JSON.stringify({ exercise: 1, seconds: 50, passed: true, attempt: 4 })}\nnot json\n`);
  const d = setUp();
  await d.shows("Drill 5 · exercise 1");
  expect(d.io.stderr.frames.join("")).toBe(`Line 2 of ${drillsFile(workspace)} is not a drill record, so it was skipped.\n`);
  d.emit({ type: "save-seen" });
  d.clock.ms = 65_000;
  d.runs(green);
  await d.shows("Personal best 0:50: this one was 0:15 slower.");
  d.io.stdin.write("q");
  await d.exit;
  const text = readFileSync(drillsFile(workspace), "utf8").split("\n");
  expect(text[1]).toBe("not json");
  expect(JSON.parse(text[2]!)).toMatchObject({ attempt: 5, seconds: 65 });
});

test("without raw mode there are no keys and no raw-mode error; a signal still ends the drill, recorded", async () => {
  const before = process.listenerCount("SIGHUP");
  const d = setUp({ tty: false });
  await d.shows("Drill 1 · exercise 1");
  expect(d.io.stdout.lastFrame()).not.toContain("q quit");
  expect(d.io.stdin.rawMode).toEqual([]);
  d.emit({ type: "save-seen" });
  d.clock.ms = 3_000;
  process.emit("SIGHUP");
  // Written while the signal is handled, before the screen is torn down.
  expect(d.lines()).toEqual([expect.objectContaining({ passed: false, abandoned: true, seconds: 3 })]);
  d.clock.ms = 9_000;
  expect(await d.exit).toBe(0);
  expect(process.listenerCount("SIGHUP")).toBe(before);
  expect(d.lines()).toEqual([expect.objectContaining({ passed: false, abandoned: true, seconds: 3 })]);
});

test("green, then SIGTERM: the green line was written at green and is the only one", async () => {
  const d = setUp();
  await d.shows("q quit");
  d.clock.ms = 1_000;
  writeFileSync(d.file(), solution);
  d.emit({ type: "save-seen" });
  d.clock.ms = 31_000;
  d.runs(green);
  await d.shows("Green in 0:31");
  d.clock.ms = 99_000;
  process.emit("SIGTERM");
  expect(await d.exit).toBe(0);
  expect(d.lines()).toEqual([expect.objectContaining({ passed: true, abandoned: false, seconds: 31, lines: 8 })]);
});

test("a save the watcher reports only after its run began is still an attempt; running the same code again is not another try", async () => {
  const d = setUp();
  await d.shows("q quit");
  d.runs(red); // at launch, on the file as written
  d.clock.ms = 7_000;
  writeFileSync(d.file(), halfway);
  d.runs(red); // the changed file is run before any save event arrives
  d.clock.ms = 7_300;
  d.emit({ type: "save-seen" }); // the watcher, late
  d.runs(red); // the run that late report queued: the same code
  d.clock.ms = 20_000;
  writeFileSync(d.file(), solution);
  d.emit({ type: "save-seen" });
  d.runs(green);
  await d.shows("Green in 0:20 · 8 lines · 2 runs · no peeking");
  d.io.stdin.write("q");
  await d.exit;
  expect(d.lines()).toEqual([expect.objectContaining({ passed: true, seconds: 20, runs: 2 })]);
});

test("the silence notice names lab drill, and goes once the watcher is heard again", async () => {
  const d = setUp();
  await d.shows("q quit");
  const flat = () => d.io.stdout.lastFrame().replace(/\s+/g, " ");
  d.emit({ type: "watcher-silent" });
  await until(() => flat().includes("quit and run lab drill 1 --poll."), "the silence notice");
  d.emit({ type: "watcher-heard" });
  await until(() => !flat().includes("--poll"), "the notice gone");
  d.io.stdin.write("q");
  expect(await d.exit).toBe(0);
});

test("a finished file pasted in: green within seconds of opening is recorded as pasted, never a best, and lab list's best ignores it", async () => {
  mkdirSync(join(workspace, ".lab"));
  writeFileSync(drillsFile(workspace), `${JSON.stringify({ exercise: 1, seconds: 240, passed: true, attempt: 1 })}\n`);
  const d = setUp();
  await d.shows("q quit");
  d.clock.ms = 2_500;
  writeFileSync(d.file(), solution);
  d.emit({ type: "save-seen" });
  d.runs(green);
  await d.shows("Green in 0:03");
  await until(
    () => d.io.stdout.lastFrame().replace(/\s+/g, " ").includes("recorded as pasted and is not a personal best (your best: 4:00)"),
    "the pasted verdict",
  );
  d.io.stdin.write("q");
  await d.exit;
  expect(d.lines().at(-1)).toMatchObject({ passed: true, pasted: true, seconds: 2.5 });
  expect(bestDrillSeconds(workspace)?.get(1)).toBe(240);
});

test("a live drill shows what the endpoint has cost beside each verdict, updated after every run, and records nothing", async () => {
  let spent = "live: $0.0000 of $1.00 spent";
  const d = setUp({ live: () => spent });
  await d.shows("live: $0.0000 of $1.00 spent");
  d.clock.ms = 1_000;
  d.emit({ type: "save-seen" });
  writeFileSync(d.file(), solution);
  spent = "live: $0.0042 of $1.00 spent";
  d.runs(green);
  await d.shows("Run 1: all 2 passed · live: $0.0042 of $1.00 spent");
  d.io.stdin.write("q");
  expect(await d.exit).toBe(0);
  expect(d.lines(), "the drill history").toEqual([]);
  expect(d.out()).toContain(`${DRILL_MESSAGES.liveNotKept}\n`);
});
