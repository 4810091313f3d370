/**
 * The figures exercise 12's lesson quotes, measured here with the solution against the
 * scripted provider (opus prices, $5/$25 per million). If a scenario, the tokenizer or the
 * solution changes, this test names the figure the lesson must update.
 */
import Anthropic from "@anthropic-ai/sdk";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { labPaths } from "../../checker/paths.js";
import { startProvider, type Provider } from "../../checker/provider/index.js";
import { loadExercises } from "../../checker/model/exercises.js";
import { newRun, reject, run, type RunOptions, type RunState, type Tool } from "../../solutions/12-five-exits.js";

const FILES: Record<string, string> = { "access.log": "GET /health 200", "errors.log": "worker 7 timed out after 30000 ms", "notes.txt": "Rotate the logs." };
const schema: Anthropic.Tool.InputSchema = { type: "object", properties: { path: { type: "string" } } };

function workspace(readOnly = false) {
  const ran: string[] = [];
  const deleted: string[] = [];
  const tools: Tool[] = [
    {
      name: "list_files",
      description: "Lists the files.",
      input_schema: { type: "object", properties: {} },
      readOnly,
      run: () => (ran.push("list_files"), Object.keys(FILES).join("\n")),
    },
    {
      name: "read_file",
      description: "Reads one file.",
      input_schema: schema,
      readOnly,
      run: (input) => {
        const path = String(input["path"]);
        ran.push(`read_file:${path}`);
        if (path === "/var/log/secure") throw new Error("permission denied: /var/log/secure");
        if (!(path in FILES)) throw new Error(`no such file: ${path}. Call list_files to see what exists.`);
        return FILES[path]!;
      },
    },
    {
      name: "delete_file",
      description: "Deletes one file.",
      input_schema: schema,
      run: (input) => (ran.push("delete_file"), deleted.push(String(input["path"])), ""),
    },
  ];
  return { tools, ran, deleted };
}

let provider: Provider;
let key = 0;
beforeAll(async () => void (provider = await startProvider()));
afterAll(() => provider.close());

async function measure(scenario: string, goal: string, opts: Omit<RunOptions, "client"> = {}, w = workspace(), state?: RunState, harness = run) {
  const apiKey = `numbers-${++key}`;
  const client = new Anthropic({ baseURL: provider.url(scenario), apiKey, maxRetries: 0 });
  const end = await harness(state ?? newRun(goal), w.tools, { client, ...opts });
  const calls = provider.requests.filter((r) => r.apiKey === apiKey && r.endpoint === "messages");
  const costs = calls.map((c) => c.usage!.input_tokens * 5e-6 + c.usage!.output_tokens * 25e-6);
  const wire = costs.reduce((a, b) => a + b, 0);
  return { end, ...w, costs, wire, prompts: calls.map((c) => c.usage!.input_tokens), input: calls.reduce((s, c) => s + c.usage!.input_tokens, 0) };
}

const usd = (v: number) => `$${v.toFixed(6)}`;
/** The run function of one of exercise 12's mutants, loaded from its full file (written from its diff). */
async function mutantRun(bug: string): Promise<typeof run> {
  const twelve = loadExercises(labPaths().exercises, labPaths().solutions).find((e) => e.number === 12)!;
  const module = (await import(twelve.mutants.find((m) => m.name === bug)!.file)) as { run: typeof run };
  return module.run;
}

const lesson = readFileSync(join(labPaths().exercises, "12-five-exits", "lesson.md"), "utf8");
const quoted: string[] = [];
const quote = (figure: string) => quoted.push(figure);

test("the lesson's figures come from these runs", async () => {
  const plan = await measure("plan", "Which log mentions a timeout?");
  quote(`plan: 3 turns, 2 tool runs, ${usd(plan.end.costUsd)}; prompts ${plan.prompts.join(", ")}; after turn 2 ${usd(plan.costs[0]! + plan.costs[1]!)}`);

  for (const cap of [20, 50, 100]) {
    const r = await measure("runaway", "Tidy up the workspace.", { maxTurns: cap });
    quote(`runaway cap ${cap}: ${r.input.toLocaleString("en-US")} input tokens, ${usd(r.end.costUsd)}`);
  }
  for (const limit of [0.005, 0.01, 0.02]) {
    const r = await measure("runaway", "Tidy up the workspace.", { maxBudgetUsd: limit, maxTurns: 1000 });
    quote(`budget ${usd(limit)}: ${r.end.turns} turns, ${usd(r.end.costUsd)}, the last turn ${usd(r.costs.at(-1)!)}`);
  }
  const late = await measure(
    "runaway",
    "Tidy up the workspace.",
    { maxBudgetUsd: 0.01, maxTurns: 1000 },
    workspace(),
    undefined,
    await mutantRun("budget-checked-late"),
  );
  quote(`checked late at $0.010000: ${late.costs.length} calls, ${usd(late.wire)} charged, ${usd(late.end.costUsd)} on the books`);

  const goal = "What does the timeout log say?";
  const policies = {
    fatal: await measure("recover", goal, { toolErrorsAreFatal: true }),
    generic: await measure("recover", goal, { toolErrorText: () => "the tool failed" }),
    message: await measure("recover", goal),
  };
  for (const [name, r] of Object.entries(policies))
    quote(`recover ${name}: ${r.end.status}, ${r.end.turns} turn${r.end.turns === 1 ? "" : "s"}, ${usd(r.end.costUsd)}`);
  const stubborn = await measure("stubborn", "What does /var/log/secure say?", { maxTurns: 12 });
  quote(`stubborn: ${stubborn.end.status}, ${stubborn.end.turns} turns, ${stubborn.ran.length} tool runs, ${usd(stubborn.end.costUsd)}`);

  const reads = {
    gate: await measure("repeat-read", "What does errors.log say?", {}, workspace(true)),
    none: await measure("repeat-read", "What does errors.log say?"),
  };
  quote(
    `repeat-read: ${reads.gate.end.turns} turns either way, ${reads.gate.ran.length} tool run with the gate, ${reads.none.ran.length} without, ${usd(reads.gate.end.costUsd)}`,
  );
  const deletes = await measure("repeat-delete", "Free some space.");
  quote(`repeat-delete: ${deletes.end.turns} turns, ${deletes.ran.length} tool runs, deleted ${JSON.stringify(deletes.deleted)}`);

  const stopped = (): RunState => {
    const s = newRun("Free some disk space.");
    s.messages.push(
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_01List", name: "list_files", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01List", content: Object.keys(FILES).join("\n") }] },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_01Del", name: "delete_file", input: { path: "access.log" } }] },
    );
    return Object.assign(s, { turns: 2, status: "interrupted" as const });
  };
  const told = await measure("destructive", "", {}, workspace(), reject(stopped(), "toolu_01Del", "The user declined the deletion."));
  const silent = await measure("destructive", "", {}, workspace(), reject(stopped(), "toolu_01Del"));
  quote(`reject with a reason: deleted ${JSON.stringify(told.deleted)}, "${told.end.output}"`);
  quote(`reject with nothing: deleted ${JSON.stringify(silent.deleted)}, "${silent.end.output}"`);

  console.log(quoted.join("\n"));
  const missing = quoted.filter((figure) => !lesson.includes(figure));
  expect(missing, "figures the lesson should quote as measured").toEqual([]);
}, 60_000);
