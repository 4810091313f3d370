/**
 * A GitHub Actions workflow run here the way a runner runs it: each job in a checkout folder
 * of its own, its `run` steps through bash with the workflow's, job's and step's env and
 * `${{ matrix.* }}` / `${{ env.* }}` filled in, and the steps that move files between jobs
 * (upload-artifact, download-artifact) done on a local artifacts folder with the same rules
 * (hidden files left out unless asked for, a missing path an error). Checkout and setup-node
 * are the test's own lab; the step with id "install" (npm ci) is the only command not run.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { parse } from "yaml";

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string | number>;
  with?: Record<string, string | number | boolean>;
}

interface Job {
  env?: Record<string, string | number>;
  steps: Step[];
}

export interface Workflow {
  env?: Record<string, string | number>;
  defaults?: { run?: { shell?: string } };
  jobs: Record<string, Job>;
}

export const readWorkflow = (file: string) => parse(readFileSync(file, "utf8")) as Workflow;

export interface JobRun {
  /** The folder the job's repository is checked out in (made by the caller). */
  checkout: string;
  /** Where uploaded artifacts live between jobs, one folder per artifact name. */
  artifacts: string;
  matrix?: Record<string, string | number>;
  /** Workflow env values to replace (the class's exercises, say). */
  env?: Record<string, string>;
}

export interface JobResult {
  commands: string[];
  summary: string;
  log: string;
}

type Context = { matrix: Record<string, string | number>; env: Record<string, string> };

/** `${{ matrix.x }}` and `${{ env.x }}`; any other expression is a step this emulation does not know. */
function fill(text: string, ctx: Context): string {
  return text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, path: string) => {
    const [scope, key] = path.split(".") as [string, string];
    const value = scope === "matrix" ? ctx.matrix[key] : scope === "env" ? ctx.env[key] : undefined;
    if (value === undefined) throw new Error(`the workflow uses \${{ ${path} }}, which this emulation does not provide`);
    return String(value);
  });
}

const filled = (values: Record<string, string | number> | undefined, ctx: Context) =>
  Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, fill(String(v), ctx)]));

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    child.stdout.on("data", (c: Buffer) => (log += c.toString()));
    child.stderr.on("data", (c: Buffer) => (log += c.toString()));
    child.on("close", (code) => (code === 0 ? done(log) : fail(new Error(`step failed with exit ${code}:\n${script}\n${log}`))));
  });
}

const hidden = (path: string) => path.split(sep).some((part) => part.startsWith(".") && part !== "." && part !== "..");

function upload(step: Step, ctx: Context, run: JobRun): void {
  const name = fill(String(step.with?.["name"]), ctx);
  const paths = fill(String(step.with?.["path"]), ctx)
    .split("\n")
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => resolve(run.checkout, p));
  // upload-artifact@v4 leaves hidden files and folders out unless include-hidden-files is true.
  const kept = paths.filter((p) => existsSync(p) && (step.with?.["include-hidden-files"] === true || !hidden(relative(run.checkout, p))));
  if (kept.length < paths.length && step.with?.["if-no-files-found"] === "error")
    throw new Error(`upload ${name}: no files at ${paths.filter((p) => !kept.includes(p)).join(", ")}`);
  const parents = kept.map((p) => (statSync(p).isDirectory() && kept.length === 1 ? p : dirname(p)));
  const root = parents.reduce((a, b) => {
    while (!`${b}${sep}`.startsWith(`${a}${sep}`) && a !== dirname(a)) a = dirname(a);
    return a;
  });
  for (const p of kept) cpSync(p, join(run.artifacts, name, relative(root, p)), { recursive: true });
}

function download(step: Step, ctx: Context, run: JobRun): void {
  const pattern = new RegExp(
    `^${fill(String(step.with?.["pattern"]), ctx)
      .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")}$`,
  );
  const into = resolve(run.checkout, fill(String(step.with?.["path"]), ctx));
  for (const name of readdirSync(run.artifacts).filter((n) => pattern.test(n))) cpSync(join(run.artifacts, name), join(into, name), { recursive: true });
}

/** Runs one job of the workflow; throws on a failing step or a step it cannot emulate. */
export async function runJob(workflow: Workflow, jobName: string, run: JobRun): Promise<JobResult> {
  const job = workflow.jobs[jobName]!;
  const ctx: Context = { matrix: run.matrix ?? {}, env: {} };
  ctx.env = { ...filled(workflow.env, ctx), ...run.env };
  ctx.env = { ...ctx.env, ...filled(job.env, ctx) };
  if (workflow.defaults?.run?.shell !== "bash") throw new Error("the workflow's run steps must say shell: bash");
  mkdirSync(run.artifacts, { recursive: true });
  const summaryFile = join(run.artifacts, `.summary-${jobName}-${Object.values(ctx.matrix).join("-")}`);
  writeFileSync(summaryFile, "");
  const result: JobResult = { commands: [], summary: "", log: "" };
  for (const step of job.steps) {
    const uses = step.uses?.replace(/@.*/, "");
    if (uses === "actions/checkout") continue;
    if (uses === "actions/setup-node") {
      if (String(step.with?.["node-version"]) !== "20") throw new Error("the workflow must set up Node 20");
      continue;
    }
    if (uses === "actions/upload-artifact") upload(step, ctx, run);
    else if (uses === "actions/download-artifact") download(step, ctx, run);
    else if (step.id === "install") {
      if (step.run !== "npm ci") throw new Error(`the install step runs ${step.run}, not npm ci`);
    } else if (step.run !== undefined) {
      const env = { ...process.env, ...ctx.env, ...filled(step.env, ctx), CI: "true", GITHUB_STEP_SUMMARY: summaryFile };
      const script = fill(step.run, ctx);
      result.commands.push(script);
      result.log += await bash(script, run.checkout, env);
    } else throw new Error(`no emulation for step ${step.name ?? step.uses}`);
  }
  result.summary = readFileSync(summaryFile, "utf8");
  return result;
}

/** What a job's checkout of the lab holds: the lab itself (linked; it is this repository), and a copy of the class. */
export function labCheckout(root: string, dir: string, classDir: string | null): string {
  mkdirSync(dir, { recursive: true });
  for (const entry of ["bin", "dist", "node_modules", "exercises", "solutions", "package.json"]) symlinkSync(join(root, entry), join(dir, entry));
  cpSync(join(root, "lab.config.ts"), join(dir, "lab.config.ts"));
  if (classDir !== null) cpSync(classDir, join(dir, "class"), { recursive: true });
  return dir;
}

/** One command in a checkout, as a step would run it. */
export const runCommand = (script: string, cwd: string) => bash(script, cwd, { ...process.env, CI: "true" });
