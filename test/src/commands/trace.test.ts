import Anthropic from "@anthropic-ai/sdk";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startProvider, type Provider } from "../../../checker/provider/index.js";
import { main } from "../../../src/cli/main.js";
import { TRACE_MESSAGES, traceCommand } from "../../../src/commands/trace.js";
import { newRun, run, type Tool } from "../../../solutions/12-five-exits.js";
import { tempDir } from "../../support/temp-dir.js";
import { fakeIo } from "../screen/streams.js";
import { err, out } from "./lab-dir.js";

let provider: Provider;
beforeAll(async () => void (provider = await startProvider()));
afterAll(() => provider.close());

const schema: Anthropic.Tool.InputSchema = { type: "object", properties: { path: { type: "string" } } };
const TOOLS: Tool[] = [
  { name: "list_files", description: "Lists the files.", input_schema: { type: "object", properties: {} }, run: () => "access.log\nerrors.log" },
  { name: "delete_file", description: "Deletes a file.", input_schema: schema, needsApproval: true, run: () => "" },
];

/** A real trace: exercise 12's solution on `destructive`, stopped for approval. */
async function destructiveTrace(cwd: string): Promise<string> {
  const file = join(cwd, "trace.jsonl");
  const client = new Anthropic({ baseURL: provider.url("destructive"), apiKey: "trace-test", maxRetries: 0 });
  await run(newRun("Free some disk space.", { runId: "run-a" }), TOOLS, { client, trace: file });
  return file;
}

test("prints a real trace as a timeline: every event in order, each line within 80 columns", async () => {
  const cwd = tempDir("trace");
  await destructiveTrace(cwd);
  const io = fakeIo({ tty: false, cwd });

  expect(await traceCommand("trace.jsonl", {}, io)).toBe(0);
  const lines = out(io).trimEnd().split("\n");
  expect(lines[0]).toBe("run run-a · 6 events");
  const time = lines.findIndex((l) => l.trim().startsWith("wall time"));
  expect(lines.slice(1, time).map((l) => l.trim().split(/\s+/)[1])).toEqual(["turn", "tool_start", "tool_result", "turn", "approval_required", "run_stopped"]);
  // Without the provider's log, model calls and the harness stay one sum, and the line says how to split them.
  expect(lines.slice(time).join(" ").replace(/\s+/g, " ")).toMatch(
    /^ wall time \d+\.\d{3} s: tools \d+\.\d{3} s, model and harness \d+\.\d{3} s \(--requests LOG splits them\)$/,
  );
  expect(lines[time - 1]).toMatch(/run_stopped +interrupted \(approval\), 2 turns, \$0\.\d{6}$/);
  for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
});

test("runs are grouped by run id, --run picks one, and a long detail wraps instead of being cut", async () => {
  const cwd = tempDir("trace");
  const file = join(cwd, "t.jsonl");
  const long = "x".repeat(150);
  const events = [
    { runId: "one", type: "tool_progress", toolName: "scan", label: `scanned ${long} files`, at: 1000 },
    { runId: "two", type: "run_stopped", status: "budget_exceeded", reason: "max_budget", turns: 4, costUsd: 0.0107, at: 5000 },
    { runId: "one", type: "run_stopped", status: "completed", reason: null, turns: 3, costUsd: 0.00247, at: 1250 },
  ];
  writeFileSync(file, events.map((e) => JSON.stringify(e)).join("\n") + "\n");

  const io = fakeIo({ tty: false, cwd });
  expect(await traceCommand(file, {}, io)).toBe(0);
  const text = out(io);
  expect(text.indexOf("run one")).toBeLessThan(text.indexOf("run two"));
  expect(text).toContain("+0.250s  run_stopped       completed, 3 turns, $0.002470");
  expect(text.replace(/\s+/g, "")).toContain(`scanned${long}files`);
  for (const line of text.trimEnd().split("\n")) expect(line.length).toBeLessThanOrEqual(80);

  const only = fakeIo({ tty: false, cwd });
  expect(await traceCommand(file, { run: "two" }, only)).toBe(0);
  expect(out(only)).toBe("run two · 1 event\n  +0.000s  run_stopped       budget_exceeded (max_budget), 4 turns, $0.010700\n");
  await expect(traceCommand(file, { run: "three" }, fakeIo({ tty: false, cwd }))).rejects.toThrow(TRACE_MESSAGES.noRun("three", ["one", "two"]));
});

test("a line that is not JSON is named on stderr and the rest is still shown, with exit 1", async () => {
  const cwd = tempDir("trace");
  const file = await destructiveTrace(cwd);
  appendFileSync(file, "{ not json\n");
  const io = fakeIo({ tty: false, cwd });

  expect(await traceCommand(file, {}, io)).toBe(1);
  expect(err(io)).toMatch(/^lab trace: line 7 is not a JSON object \(.+\); it is left out\.\n$/);
  expect(out(io)).toContain("run_stopped");
});

test("a missing file is one sentence from lab trace, with exit 2", async () => {
  const cwd = tempDir("trace");
  const io = fakeIo({ tty: false, cwd });
  expect(await main(["node", "lab", "trace", "nowhere.jsonl"], io)).toBe(2);
  expect(err(io).trim()).toBe(TRACE_MESSAGES.unreadable("nowhere.jsonl", "ENOENT"));
});

test("with the provider's log (--requests), the wall time line splits model calls from tools and the harness", async () => {
  const cwd = tempDir("trace");
  await destructiveTrace(cwd);
  const log = join(cwd, "requests.jsonl");
  writeFileSync(log, provider.requests.map((x) => JSON.stringify(x)).join("\n") + "\nnot an exchange\n");
  const io = fakeIo({ tty: false, cwd });

  expect(await main(["node", "lab", "trace", "trace.jsonl", "--requests", "requests.jsonl"], io)).toBe(0);
  const text = out(io).replace(/\s+/g, " ");
  expect(text).toMatch(/ wall time \d+\.\d{3} s: model \d+\.\d{3} s in 2 calls, tools \d+\.\d{3} s, harness \d+\.\d{3} s $/);
  expect(err(io)).toBe(`${TRACE_MESSAGES.badRequests("requests.jsonl", provider.requests.length + 1)}\n`);
});
