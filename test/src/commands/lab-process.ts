import { spawn } from "node:child_process";
import { join } from "node:path";

const bin = join(import.meta.dirname, "../../../bin/lab.js");

/** `lab ARGS` as its own process in `cwd`, as a learner types it: its exit code and what it wrote. */
export function lab(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
