import { spawn, spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, test } from "vitest";
import { tempDir } from "../support/temp-dir.js";

const root = resolve(import.meta.dirname, "../..");

/** Runs lab with a reader that has already gone away, as `lab show 1 --lesson | head -1` leaves it. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [join(root, "bin/lab.js"), ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((done) => child.on("close", (code) => done({ code, stderr })));
}

test("a reader that stops early ends the output quietly: no EPIPE stack trace, exit 0", async () => {
  for (const args of [["show", "1", "--lesson"], ["--help"]]) {
    await expect(withClosedStdout(args)).resolves.toEqual({ code: 0, stderr: "" });
  }
});

test("from another folder, npx --no --prefix <the lab> harness-lab runs this lab there, and never fetches a package of that name", async () => {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; bin: Record<string, string> };
  expect(pkg.bin).toEqual({ lab: "bin/lab.js", "harness-lab": "bin/lab.js" });
  const elsewhere = tempDir("instructor");
  const npx = process.platform === "win32" ? "npx.cmd" : "npx";
  // npm exec installs the lab as a file: package in a cache of its own the first time it meets
  // its folder, and that runs the lab's prepare (npm run build): the build other tests are
  // running from at this moment. A fresh cache makes every run take that path; no scripts, so
  // the build stays as it is.
  const env = { ...process.env, npm_config_cache: tempDir("npx-cache"), npm_config_ignore_scripts: "true" };
  const built = statSync(join(root, "dist/src/cli/main.js")).mtimeMs;
  const run = spawnSync(npx, ["--no", "--prefix", root, "harness-lab", "--version"], { cwd: elsewhere, encoding: "utf8", env });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout.trim()).toBe(pkg.version);
  // It runs in the caller's folder: outside a lab, lab list says where it looked.
  const list = spawnSync(npx, ["--no", "--prefix", root, "harness-lab", "list"], { cwd: elsewhere, encoding: "utf8", env });
  expect(list.stderr).toContain(`No lab.config.ts in ${elsewhere}`);
  expect(statSync(join(root, "dist/src/cli/main.js")).mtimeMs, "the lab's build was left as it was").toBe(built);
}, 60_000);
