/**
 * `lab run N [goal]`: the learner's file on the exercise's own demo task, against the scripted
 * provider. The file and the demo (`exercises/NN-slug/demo.ts`) are bundled the way the
 * learner's realm bundles them (checker/realm/bundle.ts), so TypeScript needs nothing beyond
 * the lab, and run in a child process of their own; what the learner's code prints is shown as
 * it comes, behind a bar, then what the demo returned.
 */
import { fork } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { supportModule, type Exercise } from "../../checker/model/exercises.js";
import { labPaths } from "../../checker/paths.js";
import { startProvider } from "../../checker/provider/index.js";
import { bundleLearner, LearnerSyntaxError, learnerSdkUrl } from "../../checker/realm/bundle.js";
import { UsageError } from "../terminal/errors.js";
import { writeLine, type Io } from "../terminal/io.js";
import { NARRATION_MARK, type ChildArgs, type ChildReport } from "./demo-protocol.js";

export const RUN_MESSAGES = {
  noDemo: (n: number) => `Exercise ${n} has no demo task (exercises/…/demo.ts), so there is nothing for lab run to run.`,
  header: (n: number, title: string) => `lab run ${n}: ${title}`,
  file: (file: string) => `file: ${file}`,
  goal: (goal: string) => `goal: ${goal}`,
  notBundled: (detail: string) => `Your file could not be loaded, so nothing ran: ${detail}`,
  returned: "It returned:",
  threw: (text: string) => `It threw: ${text}`,
  timedOut: (seconds: number) => `It did not finish in ${seconds} s and was stopped: look for a loop that never ends or a promise that never settles.`,
  died: (how: string) => `The run's process ended before the demo finished (${how}).`,
  neverSettled: "It awaited a promise that never settles: nothing was left to run, so the process ended with the demo unfinished.",
  trace: (file: string, shown: string) => `Its trace: ${file} (lab trace ${shown} shows it as a timeline).`,
} as const;

/** What the learner's code printed is set apart from the demo's words by this bar. */
export const PRINTED = "│ ";

export interface DemoRunOptions {
  io: Io;
  exercise: Exercise;
  implFile: string;
  goal: string | undefined;
  workspaceDir: string;
  timeoutSeconds: number;
}

export const demoFile = (exercise: Pick<Exercise, "dir">) => join(exercise.dir, "demo.ts");
/** Where a run's JSONL trace goes: runs/ in the workspace, one file per exercise, fresh each run. */
export const traceFileOf = (workspaceDir: string, exercise: Pick<Exercise, "id">) => join(workspaceDir, "runs", `${exercise.id}.jsonl`);

const isHiddenTest = (path: string) => basename(path) === "hidden.test.ts";

type BundleError = { message?: string; loc?: { file?: string; line: number; column: number } };

/** The bundler's first problem in one line: where, and what (a syntax error, an import the wall refused). */
function bundleProblem(err: unknown): string {
  if (err instanceof LearnerSyntaxError) return err.message;
  const first = ((err as { errors?: BundleError[] }).errors?.[0] ?? err) as BundleError;
  const what = stripVTControlCharacters(first.message ?? String(err))
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line !== "" && !line.startsWith("Build failed"));
  const where = first.loc ? `${first.loc.file}:${first.loc.line}:${first.loc.column + 1}: ` : "";
  return `${where}${what ?? String(err)}`;
}

/** Prints each line of `stream` as it comes: the demo's narration as it is, the learner's output behind the bar. */
function relay(stream: NodeJS.ReadableStream, io: Io): Promise<void> {
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on("line", (line) => writeLine(io.stdout, line.startsWith(NARRATION_MARK) ? line.slice(NARRATION_MARK.length) : `${PRINTED}${line}`));
  return new Promise((done) => lines.once("close", done));
}

/** Runs the child to its report, its exit or the time limit, whichever comes first. */
function runChild(args: ChildArgs, io: Io, timeoutSeconds: number): Promise<ChildReport | { kind: "timeout" } | { kind: "died"; how: string }> {
  const entry = fileURLToPath(new URL("./demo-child.js", import.meta.url));
  const child = fork(entry, [JSON.stringify(args)], { cwd: io.cwd, stdio: ["ignore", "pipe", "pipe", "ipc"] });
  const relayed = Promise.all([relay(child.stdout!, io), relay(child.stderr!, io)]);
  return new Promise((resolve) => {
    let report: ChildReport | null = null;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutSeconds * 1000);
    child.on("message", (message: ChildReport) => void (report = message));
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      void relayed.then(() => {
        if (report) resolve(report);
        else if (timedOut) resolve({ kind: "timeout" });
        else resolve({ kind: "died", how: signal ? `signal ${signal}` : `exit code ${code}` });
      });
    });
  });
}

export async function runDemo({ io, exercise, implFile, goal, workspaceDir, timeoutSeconds }: DemoRunOptions): Promise<number> {
  const demo = demoFile(exercise);
  if (!existsSync(demo)) throw new UsageError(RUN_MESSAGES.noDemo(exercise.number));
  writeLine(io.stdout, RUN_MESSAGES.header(exercise.number, exercise.title));
  writeLine(io.stdout, RUN_MESSAGES.file(implFile));
  if (goal !== undefined) writeLine(io.stdout, RUN_MESSAGES.goal(goal));
  writeLine(io.stdout);
  const work = mkdtempSync(join(tmpdir(), "lab-run-"));
  const traceFile = traceFileOf(workspaceDir, exercise);
  let provider: Awaited<ReturnType<typeof startProvider>> | null = null;
  try {
    let learner: string;
    try {
      learner = (await bundleLearner(implFile, isHiddenTest)).code;
    } catch (err) {
      writeLine(io.stdout, RUN_MESSAGES.notBundled(bundleProblem(err)));
      return 1;
    }
    const files = { learner: join(work, "learner.mjs"), demo: join(work, "demo.mjs"), dir: join(work, "files") };
    writeFileSync(files.learner, learner);
    writeFileSync(files.demo, (await bundleLearner(demo, isHiddenTest)).code);
    mkdirSync(files.dir);
    mkdirSync(join(workspaceDir, "runs"), { recursive: true });
    rmSync(traceFile, { force: true });
    provider = await startProvider();
    const args: ChildArgs = {
      learner: files.learner,
      demo: files.demo,
      sdkUrl: learnerSdkUrl(),
      origin: provider.origin,
      goal,
      workDir: files.dir,
      traceFile,
      labTest: labPaths().labTest,
      labSupport: existsSync(supportModule(exercise)) ? supportModule(exercise) : null,
    };
    const report = await runChild(args, io, timeoutSeconds);
    writeLine(io.stdout);
    if (report.kind === "returned") {
      writeLine(io.stdout, RUN_MESSAGES.returned);
      for (const line of report.text.split("\n")) writeLine(io.stdout, `  ${line}`);
    } else if (report.kind === "threw") writeLine(io.stdout, RUN_MESSAGES.threw(report.text));
    else if (report.kind === "timeout") writeLine(io.stdout, RUN_MESSAGES.timedOut(timeoutSeconds));
    else if (report.kind === "unsettled") writeLine(io.stdout, RUN_MESSAGES.neverSettled);
    else writeLine(io.stdout, RUN_MESSAGES.died(report.how));
    if (existsSync(traceFile) && statSync(traceFile).size > 0) writeLine(io.stdout, RUN_MESSAGES.trace(traceFile, relative(io.cwd, traceFile)));
    return report.kind === "returned" ? 0 : 1;
  } finally {
    await provider?.close();
    rmSync(work, { recursive: true, force: true });
  }
}
