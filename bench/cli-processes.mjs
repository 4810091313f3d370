// How bench/cli.mjs times one lab command of a checkout as a whole process, spawn to exit, or
// in a real terminal: a pseudo-terminal made by util-linux's `script`, 80×24, which lab sees
// as the learner's terminal (isTTY, its size), while this process reads every byte drawn.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { BenchUsageError, exerciseFolders } from "./side-by-side.mjs";

const START_WITHIN_MS = 60_000;

export const PROCESS_MESSAGES = {
  noScript: "lab start is timed in a pseudo-terminal made by util-linux's script, which is not on PATH.",
  failed: (command, code, said) => `${command} exited ${code}: ${said}`,
  late: (command) => `${command} showed no first verdict within ${START_WITHIN_MS / 1000} s.`,
};

const bin = (root) => join(root, "bin", "lab.js");
const quoted = (s) => `'${s.replaceAll("'", `'\\''`)}'`;

/** A fresh folder holding a lab.config.ts whose workspace is ./ws; `files` are copied into ws/. */
export function labFolder(files = {}) {
  const cwd = mkdtempSync(join(tmpdir(), "lab-bench-cli-"));
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws" };\n`);
  mkdirSync(join(cwd, "ws"));
  for (const [name, from] of Object.entries(files)) copyFileSync(from, join(cwd, "ws", name));
  return cwd;
}

export const removeFolder = (cwd) => rmSync(cwd, { recursive: true, force: true });

/** Spawn to exit of `node script args` in `cwd`, in ms; any exit but 0 throws with what it said. */
export function wallTime(script, args, cwd) {
  const t0 = performance.now();
  const run = spawnSync(process.execPath, [script, ...args], { cwd, encoding: "utf8", env: { ...process.env, CI: "" } });
  const took = performance.now() - t0;
  if (run.status !== 0) throw new Error(PROCESS_MESSAGES.failed(`${script} ${args.join(" ")}`, run.status, run.stderr || run.stdout));
  return took;
}

export const labTime = (root, args, cwd) => wallTime(bin(root), args, cwd);

/** `lab check N --file ws/<its file>` on a copy of the checkout's solution: a passing file, in the workspace. */
export function checkPassing(root, n) {
  const id = exerciseFolders(root).get(n);
  const cwd = labFolder({ [`${id}.ts`]: join(root, "solutions", `${id}.ts`) });
  try {
    return { [`lab check ${n}, passing file`]: labTime(root, ["check", String(n), "--file", join("ws", `${id}.ts`)], cwd) };
  } finally {
    removeFolder(cwd);
  }
}

export function requireScript() {
  if (spawnSync("script", ["--version"]).error) throw new BenchUsageError(PROCESS_MESSAGES.noScript);
}

/**
 * `lab start N` in a fresh workspace (so on the stub lab writes there), in an 80×24 terminal:
 * ms from spawn to the screen's first frame ("Exercise N · …") and to its first verdict
 * ("Run 1: …"); then q, and lab must exit 0.
 */
export function startToVerdict(root, n) {
  const cwd = labFolder();
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, TERM: process.env.TERM || "xterm-256color" };
  delete env.CI;
  delete env.CONTINUOUS_INTEGRATION;
  const command = `lab start ${n}`;
  const shell = `stty cols 80 rows 24 && exec ${quoted(process.execPath)} ${quoted(bin(root))} start ${n}`;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn("script", ["-qfec", shell, "/dev/null"], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    const hung = setTimeout(() => child.kill("SIGKILL"), START_WITHIN_MS);
    const marks = {};
    let drawn = "";
    child.stdout.on("data", (chunk) => {
      drawn += String(chunk);
      if (marks.verdict !== undefined) return;
      const text = stripVTControlCharacters(drawn);
      if (marks.frame === undefined && text.includes(`Exercise ${n} · `)) marks.frame = performance.now() - t0;
      if (!/Run 1: /.test(text)) return;
      marks.verdict = performance.now() - t0;
      child.stdin.write("q");
    });
    child.on("exit", (code) => {
      clearTimeout(hung);
      removeFolder(cwd);
      if (marks.verdict === undefined) return reject(new Error(PROCESS_MESSAGES.late(command)));
      if (code !== 0) return reject(new Error(PROCESS_MESSAGES.failed(command, code, stripVTControlCharacters(drawn).slice(-400))));
      resolve({ [`${command}, first frame`]: marks.frame, [`${command}, first verdict`]: marks.verdict });
    });
  });
}
