import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { tempDir } from "../support/temp-dir.js";
import { Tmux } from "./tmux.js";

// `lab start 1` on the lab's real exercise 1, through bin/lab.js, in a real 80×24 terminal.
const root = resolve(import.meta.dirname, "../..");
const SMALL = { columns: 80, rows: 24 };

let cwd: string;
let tmux: Tmux;

beforeEach(() => {
  cwd = tempDir("e2e-small");
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws", timeoutSeconds: 30 };\n`);
  tmux = new Tmux();
});
afterEach(() => tmux.kill());

/** The screen's lines without the blank ones tmux pads it with at the bottom. */
const linesOf = (screen: string) => screen.replace(/\n+$/, "").split("\n");
const topLine = (screen: string) => linesOf(screen).find((l) => l.startsWith("Exercise 1 ·")) ?? "";

test("at 80×24 the lesson wraps inside its pane, the title and clock stay on screen, and a resize reflows it", async () => {
  tmux.start(`cd ${cwd} && unset CI && ${process.execPath} ${join(root, "bin/lab.js")} start 1; sleep 600`, SMALL);
  await tmux.until((s) => s.includes("Run 1:"), "the stub's first run", 30_000);
  tmux.keys("l");
  const lesson = await tmux.until((s) => s.includes("Lesson: The tool-calling loop") && s.includes("lines 1–"), "the lesson pane");
  expect(topLine(lesson)).toMatch(/^Exercise 1 · The tool-calling loop +\d+:\d\d$/);
  // The lesson's second paragraph, hard-wrapped at 86 columns in the file, reflowed inside the border.
  const inside = linesOf(lesson)
    .filter((l) => l.startsWith("│ "))
    .map((l) => l.slice(2, -1).trim());
  expect(inside.every((l) => !l.endsWith("…"))).toBe(true);
  expect(inside.join(" ")).toContain("An agent is a model inside a loop. You send a goal and a list of tools; the model either answers or asks for a tool;");

  tmux.keys("Space");
  const paged = await tmux.until((s) => /lines (?!1–)\d+–/.test(s), "the next page");
  expect(topLine(paged)).not.toBe("");

  tmux.resize({ columns: 120, rows: 40 });
  const wide = await tmux.until((s) => linesOf(s).some((l) => l.startsWith("│ ") && l.length > 81), "the pane reflowed to 120 columns");
  expect(topLine(wide)).toMatch(/^Exercise 1 · The tool-calling loop +\d+:\d\d$/);
  tmux.keys("q");
}, 60_000);
