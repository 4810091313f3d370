import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { startProvider, type Provider } from "../../checker/provider/index.js";
import { tempDir } from "../support/temp-dir.js";
import { Tmux } from "./tmux.js";

// `lab start --live` in a real 80×24 terminal, the scripted provider standing in for the endpoint.

const root = resolve(import.meta.dirname, "../..");
const solution = readFileSync(join(root, "test/fixtures/lab/solutions/01-adder.ts"), "utf8");

let provider: Provider;
let tmux: Tmux;
beforeAll(async () => {
  provider = await startProvider();
});
afterAll(() => provider.close());
afterEach(() => tmux.kill());

test("the verdict says live and what the endpoint has cost, beside the skipped count, inside 80 columns", async () => {
  const cwd = tempDir("e2e-live");
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws" };\n`);
  mkdirSync(join(cwd, "ws"));
  writeFileSync(join(cwd, "ws/01-adder.ts"), solution);
  tmux = new Tmux();
  const launcher = join(root, "test/e2e/lab-fixture.mjs");

  tmux.start(`cd ${cwd} && unset CI && ${process.execPath} ${launcher} start 1 --live ${provider.url("echo")}; echo LAB-EXIT=$?; sleep 600`, {
    columns: 80,
    rows: 24,
  });

  const screen = await tmux.until((s) => s.includes("Run 1:"), "the first live run", 30_000);
  // The fixture's two model tests stage their answers (echo, a 429): a live run skips both.
  expect(screen).toMatch(/^Run 1: 1 of 1 passed, 2 skipped · live: \$0\.0000 of \$1\.00 spent\s*$/m);
  expect(screen).toContain("✔ All 1 tests that ran pass. 2 were skipped");
  expect(screen).not.toContain("is solved");
  // The screen itself, from its title down (the lines printed before it may wrap).
  const drawn = screen.slice(screen.indexOf("Exercise 1 · ")).split("\n");
  for (const line of drawn) expect(line.length).toBeLessThanOrEqual(80);
  tmux.keys("q");
  await tmux.until((s) => s.includes("LAB-EXIT=0"), "lab exiting");
}, 60_000);
