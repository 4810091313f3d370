import { PassThrough } from "node:stream";
import type { Io } from "../../src/terminal/io.js";

/** An Io whose output is captured as text; not a TTY unless asked. */
export function captureIo(cwd: string, env: NodeJS.ProcessEnv = {}): Io & { out(): string; err(): string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (c: Buffer) => (out += c.toString()));
  stderr.on("data", (c: Buffer) => (err += c.toString()));
  return {
    stdout,
    stderr,
    stdin: new PassThrough(),
    env,
    cwd,
    out: () => out,
    err: () => err,
  };
}
