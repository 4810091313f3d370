import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { tempDir } from "../support/temp-dir.js";
import { Tmux } from "./tmux.js";

// The results at 80×24 in a real terminal: more rows than fit scroll with the lesson's keys,
// and o shows what a test printed under its row.
const root = resolve(import.meta.dirname, "../..");
const SMALL = { columns: 80, rows: 24 };

let cwd: string;
let tmux: Tmux;

beforeEach(() => {
  cwd = tempDir("e2e-results");
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws", timeoutSeconds: 30, typeCheck: false };\n`);
  tmux = new Tmux();
});
afterEach(() => tmux.kill());

const linesOf = (screen: string) => screen.replace(/\n+$/, "").split("\n");
/** "lines 5–12 of 30": the window's first and last line and the total. */
const windowOf = (screen: string) => {
  const match = /lines (\d+)–(\d+) of (\d+) · ↑↓ scroll/.exec(screen);
  return match ? { from: Number(match[1]), to: Number(match[2]), total: Number(match[3]) } : null;
};

test("lab start 1 at 80×24: every one of the stub's failing rows can be reached with j, space, k and b, the title staying on top", async () => {
  const names = [...readFileSync(join(root, "exercises/01-tool-loop/hidden.test.ts"), "utf8").matchAll(/\btest\("([^"]+)"/g)].map((m) => m[1]!);
  tmux.start(`cd ${cwd} && unset CI && ${process.execPath} ${join(root, "bin/lab.js")} start 1; sleep 600`, SMALL);
  const first = await tmux.until((s) => s.includes("Run 1:") && windowOf(s) !== null, "the first run, its rows in a window");
  const start = windowOf(first)!;
  expect(start.total).toBeGreaterThan(start.to - start.from + 1);
  const seen = new Set<string>();
  const collect = (screen: string) => {
    expect(linesOf(screen)[0]).toMatch(/^Exercise 1 · The tool-calling loop +\d+:\d\d$/);
    const text = linesOf(screen)
      .map((l) => l.trim())
      .join(" ");
    for (const name of names) if (text.includes(name)) seen.add(name);
  };
  collect(first);
  tmux.keys("j");
  collect(await tmux.until((s) => windowOf(s)?.from === start.from + 1, "one line down"));
  let at = windowOf(tmux.screen())!;
  while (at.to < at.total) {
    tmux.keys("Space");
    const before = at.from;
    const screen = await tmux.until((s) => (windowOf(s)?.from ?? 0) > before, "a page down");
    collect(screen);
    at = windowOf(screen)!;
  }
  while (at.from > 1) {
    tmux.keys("b");
    const before = at.from;
    const screen = await tmux.until((s) => (windowOf(s)?.from ?? before) < before, "a page up");
    collect(screen);
    at = windowOf(screen)!;
  }
  tmux.keys("j");
  await tmux.until((s) => windowOf(s)?.from === 2, "one line down again");
  tmux.keys("k");
  await tmux.until((s) => windowOf(s)?.from === 1, "one line up, back at the top");
  expect([...seen].sort()).toEqual([...names].sort());
  tmux.keys("q");
}, 90_000);

test("o at 80×24 shows what a failing test printed under its row, cut and counted past twelve lines, then the test's own report; o again hides it", async () => {
  const dir = join(cwd, "ws");
  mkdirSync(dir);
  // The learner's own console.log, as its realm captures it: fifteen lines, then a wrong sum.
  const stub = readFileSync(join(root, "test/fixtures/lab/exercises/01-adder/stub.ts"), "utf8");
  const debugging = "for (let step = 1; step <= 15; step++) console.log(`DEBUG step ${step}`);\n  return a + b + 1;";
  writeFileSync(join(dir, "01-adder.ts"), stub.replace('throw new Error("not implemented");', debugging));
  tmux.start(`cd ${cwd} && unset CI && ${process.execPath} ${join(root, "test/e2e/lab-fixture.mjs")} start 1; sleep 600`, SMALL);
  const first = await tmux.until((s) => s.includes("Run 1:") && s.includes("o show output"), "the first run, with output to show");
  expect(first).not.toContain("DEBUG");
  tmux.keys("o");
  const shown = await tmux.until((s) => s.includes("│ DEBUG step 1"), "the output under the first failing row");
  const lines = linesOf(shown);
  expect(lines.length).toBeLessThanOrEqual(SMALL.rows);
  for (const line of lines) expect([...line].length).toBeLessThanOrEqual(SMALL.columns);
  const row = lines.findIndex((l) => l.includes("│ DEBUG step 1"));
  expect(lines[row - 1]).toMatch(/✘ /);
  expect(shown).toContain("o hide output");
  // Scrolled to the cut: the twelfth line, then the count of the other three.
  let screen = shown;
  while (!screen.includes("│ … 3 more lines printed")) {
    const before = windowOf(screen)?.from;
    expect(before, "a window to scroll").toBeDefined();
    tmux.keys("j");
    screen = await tmux.until((s) => windowOf(s)?.from !== before, "one line down");
  }
  expect(screen).toContain("│ DEBUG step 12");
  expect(screen).not.toContain("│ DEBUG step 13");
  // Below the learner's output, the line the hidden test printed on purpose: its report, labelled.
  while (!screen.includes("│ add(2, 3) returned 6") && windowOf(screen)!.to < windowOf(screen)!.total) {
    const before = windowOf(screen)!.from;
    tmux.keys("j");
    screen = await tmux.until((s) => windowOf(s)?.from !== before, "one line down");
  }
  expect(screen).toContain("│ add(2, 3) returned 6");
  const report = linesOf(screen).map((l) => l.trimEnd());
  const said = report.indexOf("    │ add(2, 3) returned 6");
  expect(report.slice(said - 2, said)).toEqual(["    │ … 3 more lines printed: lab check --json has all of it", "    the test's report:"]);
  tmux.keys("o");
  await tmux.until((s) => !s.includes("│ DEBUG") && s.includes("o show output"), "the output hidden again");
  tmux.keys("q");
}, 90_000);
