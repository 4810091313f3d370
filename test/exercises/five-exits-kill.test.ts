/**
 * Exercise 12's resume promise, with a real process: a child runs `plan` with a checkpoint
 * directory and is killed with SIGKILL part-way; this process loads the state from disk and
 * finishes the run. The hidden tests abandon a run in-process (the learner's file is bound
 * as "lab:impl" there, which a child cannot import); this is the same property across a
 * process boundary, for the solution and the tier-3 reference.
 */
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import { startProvider, type Provider } from "../../checker/provider/index.js";
import { labPaths } from "../../checker/paths.js";

type Impl = typeof import("../../solutions/12-five-exits.js");

const paths = labPaths();
const IMPLS = {
  solution: join(paths.solutions, "12-five-exits.ts"),
  tier3: join(paths.exercises, "12-five-exits", "reference", "tier3.ts"),
};
const GOAL = "Which log mentions a timeout?";

let provider: Provider;
let work: string;
beforeAll(async () => {
  provider = await startProvider();
  work = mkdtempSync(join(tmpdir(), "lab-12-kill-"));
});
afterAll(async () => {
  await provider.close();
  rmSync(work, { recursive: true, force: true });
});

/** The implementation as plain ESM the child can import, with the SDK import pointed at this checkout's copy. */
function compile(source: string, name: string): string {
  const js = ts.transpileModule(readFileSync(source, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = join(work, `${name}.mjs`);
  writeFileSync(file, js.replaceAll(`from "@anthropic-ai/sdk"`, `from ${JSON.stringify(import.meta.resolve("@anthropic-ai/sdk"))}`));
  return file;
}

/** The workspace's tools; every completed run is appended to `log` as one line, whichever process ran it. */
const TOOLS_SOURCE = `
const FILES = { "access.log": "GET /health 200", "errors.log": "worker 7 timed out after 30000 ms" };
export function tools(log, appendFileSync, hangIn) {
  const done = (line, value) => (appendFileSync(log, line + "\\n"), value);
  return [
    { name: "list_files", description: "Lists the files.", input_schema: { type: "object", properties: {} },
      run: () => done("list_files", Object.keys(FILES).join("\\n")) },
    { name: "read_file", description: "Reads one file.", input_schema: { type: "object", properties: { path: { type: "string" } } },
      run: (input) => hangIn === "read_file"
        ? (process.stdout.write("READY\\n"), new Promise(() => {}))
        : done("read_file:" + input.path, FILES[input.path] ?? "") },
  ];
}`;

/** The child: runs `plan` with a checkpoint dir until it reaches the point where the test kills it. */
const CHILD_SOURCE = `
import { appendFileSync } from "node:fs";
import Anthropic from "SDK";
import { newRun, run } from "IMPL";
import { tools } from "./tools.mjs";
const [url, apiKey, dir, log, runId, hangIn] = process.argv.slice(2);
let calls = 0;
const fetchUntilKilled = (input, init) =>
  ++calls === 3 && hangIn === "third-call" ? (process.stdout.write("READY\\n"), new Promise(() => {})) : fetch(input, init);
const client = new Anthropic({ baseURL: url, apiKey, maxRetries: 0, fetch: fetchUntilKilled });
await run(newRun(${JSON.stringify(GOAL)}, { runId }), tools(log, appendFileSync, hangIn), { client, saveDir: dir });
process.stdout.write("FINISHED\\n");`;

function spawnUntilReady(script: string, args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr.on("data", (chunk) => (err += chunk));
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.includes("READY")) child.kill("SIGKILL");
      if (out.includes("FINISHED")) reject(new Error("the child finished instead of reaching the kill point"));
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => (signal === "SIGKILL" ? resolve(child.pid ?? null) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

const opusCost = (u: { input_tokens: number; output_tokens: number }) => u.input_tokens * 5e-6 + u.output_tokens * 25e-6;

describe.each(Object.entries(IMPLS))("12-five-exits (%s): a killed process resumes from disk", (name, source) => {
  test.each(["third-call", "read_file"])("killed at the %s: same final cost, each tool run once across both processes", async (killAt) => {
    const implFile = compile(source, `${name}-impl`);
    writeFileSync(join(work, "tools.mjs"), TOOLS_SOURCE);
    const child = join(work, `${name}-child.mjs`);
    writeFileSync(child, CHILD_SOURCE.replace("SDK", import.meta.resolve("@anthropic-ai/sdk")).replace("IMPL", pathToFileURL(implFile).href));
    const impl = (await import(pathToFileURL(implFile).href)) as Impl;
    const { tools } = (await import(pathToFileURL(join(work, "tools.mjs")).href)) as {
      tools: (log: string, append: typeof appendFileSync, hangIn?: string) => Parameters<Impl["run"]>[1];
    };

    const clientFor = (apiKey: string) => new Anthropic({ baseURL: provider.url("plan"), apiKey, maxRetries: 0 });
    const reference = await impl.run(impl.newRun(GOAL), tools(join(work, `${name}-${killAt}-ref.log`), appendFileSync), {
      client: clientFor(`ref-${name}-${killAt}`),
    });

    const dir = mkdtempSync(join(work, "runs-"));
    const log = join(dir, "tool-runs.log");
    const apiKey = `kill-${name}-${killAt}`;
    const runId = `run-${name}-${killAt}`;
    await spawnUntilReady(child, [provider.url("plan"), apiKey, dir, log, runId, killAt]);

    const restored = impl.load(dir, runId);
    expect(restored.status).toBe("running");
    const end = await impl.run(restored, tools(log, appendFileSync), { client: clientFor(apiKey), saveDir: dir });

    const calls = provider.requests.filter((r) => r.apiKey === apiKey && r.endpoint === "messages");
    expect(end.status).toBe("completed");
    expect(end.output).toContain("worker 7 timed out");
    expect(calls, "model calls across both processes").toHaveLength(3);
    expect(readFileSync(log, "utf8").trim().split("\n").sort(), "tool runs across both processes").toEqual(["list_files", "read_file:errors.log"]);
    expect(end.costUsd).toBeCloseTo(reference.costUsd, 9);
    expect(end.costUsd).toBeCloseTo(
      calls.reduce((sum, c) => sum + opusCost(c.usage!), 0),
      9,
    );
  });
});
