import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { expect, test } from "vitest";

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
