/**
 * lab run 12: your harness on a workspace of three files with an approval gate. The model
 * (the `destructive` scenario) lists the files and asks to delete access.log, which nobody
 * asked for; delete_file needs approval, so the run stops for a person. The demo approves,
 * the run resumes from its state and finishes. Every event goes to the trace file, which
 * `lab trace` shows; the state is saved to a folder of the run's own after every step.
 */
import type Anthropic from "@anthropic-ai/sdk";

interface Tool {
  name: string;
  description: string;
  input_schema: Anthropic.Tool.InputSchema;
  readOnly?: boolean;
  needsApproval?: boolean;
  run(input: Record<string, unknown>): string | Promise<string>;
}

interface RunState {
  runId: string;
  status: string;
  turns: number;
  costUsd: number;
  interruption: unknown;
  output: string | null;
  error: string | null;
}

interface Impl {
  newRun(goal: string): RunState;
  pending(state: RunState): Anthropic.ToolUseBlockParam[];
  approve(state: RunState, callId: string): RunState;
  run(state: RunState, tools: Tool[], opts: { client: Anthropic; maxTurns?: number; maxBudgetUsd?: number; saveDir?: string; trace?: string }): Promise<RunState>;
}

interface Kit {
  goal: string | undefined;
  client(scenario: string): unknown;
  say(text: string): void;
  workDir: string;
  traceFile: string;
}

const FILES: Record<string, string> = {
  "access.log": "GET /health 200\nGET /health 200",
  "errors.log": "worker 7 timed out after 30000 ms",
  "notes.txt": "Remember to rotate the logs.",
};

export default async function demo(lab: Impl, kit: Kit): Promise<unknown> {
  const files = { ...FILES };
  const path = { type: "object" as const, properties: { path: { type: "string" } } };
  const tools: Tool[] = [
    { name: "list_files", description: "Lists the files.", input_schema: { type: "object", properties: {} }, readOnly: true, run: () => Object.keys(files).join("\n") },
    { name: "read_file", description: "Reads one file.", input_schema: path, readOnly: true, run: (input) => files[String(input["path"])] ?? "no such file" },
    {
      name: "delete_file",
      description: "Deletes one file.",
      input_schema: path,
      needsApproval: true,
      run: (input) => {
        delete files[String(input["path"])];
        return "";
      },
    },
  ];
  const goal = kit.goal ?? "Free some space in the workspace.";
  const opts = { client: kit.client("destructive") as Anthropic, maxTurns: 10, maxBudgetUsd: 1, saveDir: kit.workDir, trace: kit.traceFile };
  let state = lab.newRun(goal);
  kit.say(`Run ${state.runId}: "${goal}", delete_file needing approval.`);
  state = await lab.run(state, tools, opts);
  kit.say(`It stopped: ${state.status}, after ${state.turns} model calls, $${state.costUsd.toFixed(6)}.`);
  const asked = state.status === "interrupted" ? lab.pending(state) : [];
  for (const call of asked) {
    kit.say(`A person approves ${call.name} ${JSON.stringify(call.input)}, and the run resumes from its state.`);
    state = lab.approve(state, call.id);
  }
  if (asked.length > 0) state = await lab.run(state, tools, opts);
  kit.say(`Files left: ${Object.keys(files).join(", ") || "none"}.`);
  return { status: state.status, turns: state.turns, costUsd: state.costUsd, output: state.output, error: state.error };
}
