/** The streams and environment a command talks to; tests pass their own. */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const processIo = (): Io => ({
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
});

/** True when the screen may draw: a real terminal, and not CI. */
export function isInteractive(io: Io): boolean {
  const ci = io.env["CI"];
  return Boolean(io.stdout.isTTY) && Boolean(io.stdin.isTTY) && !(ci && ci !== "0" && ci !== "false");
}

export const writeLine = (stream: NodeJS.WritableStream, line = "") => stream.write(`${line}\n`);
