/**
 * Exercise 12, written from the lesson for the points it leaves to the learner, each taken the
 * other way from the solution: a read that failed is run again, not replayed; Stop pressed
 * before a tool starts skips it; a tool cut short by Stop still writes its tool_result event
 * (ok: false); a model call the API refused counts as a turn; the answer's text blocks are
 * joined with a newline; run on a finished state still says run_stopped; approve and reject
 * return a new state. The loop is written as a dispatch over "what does the run need next".
 */
import Anthropic from "@anthropic-ai/sdk";
import { randomUUID } from "node:crypto";
import { appendFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The price list quotes dollars per million tokens; a token costs that over a million. */
const MILLION = 1_000_000;

export const PRICE: Record<string, { in: number; out: number }> = {
  "claude-opus-5": { in: 5 / MILLION, out: 25 / MILLION },
  "claude-sonnet-5": { in: 3 / MILLION, out: 15 / MILLION },
  "claude-haiku-4-5": { in: 1 / MILLION, out: 5 / MILLION },
};

export type RunStatus = "running" | "interrupted" | "completed" | "failed" | "budget_exceeded" | "max_turns_exceeded";
export type Interruption =
  | { type: "cancelled"; reason: string }
  | { type: "max_budget" }
  | { type: "max_turns" }
  | { type: "approval"; toolName: string; callId: string; input: Record<string, unknown> };

export interface RunState {
  runId: string;
  model: string;
  system?: string;
  messages: Anthropic.MessageParam[];
  turns: number;
  costUsd: number;
  status: RunStatus;
  interruption: Interruption | null;
  approved: string[];
  output: string | null;
  error: string | null;
}

export interface ToolContext {
  signal: AbortSignal;
  progress(label: string): void;
}

export interface Tool {
  name: string;
  description: string;
  input_schema: Anthropic.Tool.InputSchema;
  readOnly?: boolean;
  needsApproval?: boolean;
  run(input: Record<string, unknown>, ctx: ToolContext): string | Promise<string>;
}

export type TraceEvent = { runId: string; type: string; [field: string]: unknown };

export interface RunOptions {
  client: Anthropic;
  maxTurns?: number;
  maxBudgetUsd?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  toolErrorsAreFatal?: boolean;
  toolErrorText?: (err: Error) => string;
  saveDir?: string;
  trace?: string;
  onEvent?: (event: TraceEvent) => void;
}

type Result = Anthropic.ToolResultBlockParam;
type Call = Anthropic.ToolUseBlockParam;

const copy = (state: RunState): RunState => structuredClone(state);
const contentOf = (m: Anthropic.MessageParam): Anthropic.ContentBlockParam[] => (typeof m.content === "string" ? [] : m.content);
const allResults = (state: RunState): Result[] =>
  state.messages.filter((m) => m.role === "user").flatMap((m) => contentOf(m).filter((b): b is Result => b.type === "tool_result"));

export function newRun(goal: string, opts: { model?: string; system?: string; runId?: string } = {}): RunState {
  return {
    runId: opts.runId ?? randomUUID(),
    model: opts.model ?? "claude-opus-5",
    ...(opts.system === undefined ? {} : { system: opts.system }),
    messages: [{ role: "user", content: goal }],
    turns: 0,
    costUsd: 0,
    status: "running",
    interruption: null,
    approved: [],
    output: null,
    error: null,
  };
}

export function pending(state: RunState): Call[] {
  const turn = [...state.messages].reverse().find((m) => m.role === "assistant");
  if (!turn) return [];
  const done = new Set(allResults(state).map((r) => r.tool_use_id));
  return contentOf(turn).filter((b): b is Call => b.type === "tool_use" && !done.has(b.id));
}

/** Puts a result in the user message right after the newest assistant turn, making that message when it is missing. */
function withResult(state: RunState, result: Result): void {
  const turnAt = state.messages.map((m) => m.role).lastIndexOf("assistant");
  const after = state.messages[turnAt + 1];
  if (after && after.role === "user" && typeof after.content !== "string") after.content.push(result);
  else state.messages.splice(turnAt + 1, 0, { role: "user", content: [result] });
}

export function approve(state: RunState, callId: string): RunState {
  const next = copy(state);
  if (!next.approved.includes(callId)) next.approved.push(callId);
  return next;
}

export function reject(state: RunState, callId: string, reason?: string): RunState {
  const next = copy(state);
  withResult(next, { type: "tool_result", tool_use_id: callId, content: reason ?? "" });
  return next;
}

export function save(state: RunState, dir: string): string {
  const file = join(dir, `${state.runId}.json`);
  writeFileSync(`${file}.part`, JSON.stringify(state));
  renameSync(`${file}.part`, file);
  return file;
}

export function load(dir: string, runId: string): RunState {
  return JSON.parse(readFileSync(join(dir, `${runId}.json`), "utf8")) as RunState;
}

/** Only a read that succeeded is worth repeating: a failure is tried again. */
function earlierSuccess(state: RunState, call: Call): Result | undefined {
  const same = new Set(
    state.messages
      .filter((m) => m.role === "assistant")
      .flatMap(contentOf)
      .filter((b): b is Call => b.type === "tool_use" && b.id !== call.id && b.name === call.name && JSON.stringify(b.input) === JSON.stringify(call.input))
      .map((b) => b.id),
  );
  return allResults(state).find((r) => same.has(r.tool_use_id) && r.is_error !== true);
}

export async function run(initial: RunState, tools: Tool[], opts: RunOptions): Promise<RunState> {
  const state = copy(initial);
  const signal = opts.signal ?? new AbortController().signal;
  const limits = { turns: opts.maxTurns ?? 20, usd: opts.maxBudgetUsd ?? Infinity };
  const trace = (type: string, fields: Record<string, unknown>) => {
    const event: TraceEvent = { runId: state.runId, type, at: Date.now(), ...fields };
    if (opts.trace) appendFileSync(opts.trace, `${JSON.stringify(event)}\n`);
    opts.onEvent?.(event);
  };
  const persist = () => {
    if (opts.saveDir) save(state, opts.saveDir);
  };
  const end = (status: RunStatus, interruption: Interruption | null = null): RunState => {
    state.status = status;
    state.interruption = interruption;
    trace("run_stopped", { status, reason: interruption?.type ?? null, turns: state.turns, costUsd: state.costUsd });
    persist();
    return state;
  };
  const cancelled = () => end("interrupted", { type: "cancelled", reason: String(signal.reason) });

  if (state.status === "completed" || state.status === "failed") return end(state.status, state.interruption);
  state.status = "running";
  state.interruption = null;
  const toolsByName = new Map(tools.map((t) => [t.name, t]));

  for (;;) {
    for (const call of pending(state)) {
      const tool = toolsByName.get(call.name);
      const input = call.input as Record<string, unknown>;
      if (tool?.needsApproval && !state.approved.includes(call.id)) {
        trace("approval_required", { toolName: call.name, callId: call.id, input });
        return end("interrupted", { type: "approval", toolName: call.name, callId: call.id, input });
      }
      if (signal.aborted) return cancelled();
      const remembered = tool?.readOnly ? earlierSuccess(state, call) : undefined;
      if (remembered) {
        withResult(state, { ...remembered, tool_use_id: call.id });
        persist();
        continue;
      }
      trace("tool_start", { toolName: call.name, callId: call.id, input });
      const t0 = Date.now();
      const finished = (ok: boolean) => trace("tool_result", { toolName: call.name, callId: call.id, ms: Date.now() - t0, ok });
      try {
        if (!tool) throw new Error(`no tool named ${call.name}`);
        const progress = (label: string) => trace("tool_progress", { toolName: call.name, callId: call.id, label });
        const text = await tool.run(input, { signal, progress });
        finished(true);
        withResult(state, { type: "tool_result", tool_use_id: call.id, content: text });
      } catch (thrown) {
        finished(false);
        if (signal.aborted) return cancelled();
        const err = thrown instanceof Error ? thrown : new Error(String(thrown));
        if (opts.toolErrorsAreFatal) {
          state.error = err.message;
          return end("failed");
        }
        const words = opts.toolErrorText ? opts.toolErrorText(err) : `Error: ${err.message}`;
        withResult(state, { type: "tool_result", tool_use_id: call.id, content: words, is_error: true });
      }
      persist();
    }

    if (state.turns >= limits.turns) return end("max_turns_exceeded", { type: "max_turns" });
    if (state.costUsd >= limits.usd) return end("budget_exceeded", { type: "max_budget" });
    if (signal.aborted) return cancelled();

    const request: Anthropic.MessageCreateParamsNonStreaming = {
      model: state.model,
      max_tokens: opts.maxTokens ?? 1024,
      messages: state.messages,
      tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.input_schema })),
      ...(state.system === undefined ? {} : { system: state.system }),
    };
    state.turns += 1; // a call the API refuses is a turn too: it was asked for
    let reply: Anthropic.Message;
    try {
      reply = await opts.client.messages.create(request, { signal });
    } catch (err) {
      if (signal.aborted) return cancelled();
      state.error = err instanceof Error ? err.message : String(err);
      return end("failed");
    }
    const price = PRICE[state.model] ?? PRICE["claude-opus-5"]!;
    const u = reply.usage;
    state.costUsd +=
      (u.input_tokens + 1.25 * (u.cache_creation_input_tokens ?? 0) + 0.1 * (u.cache_read_input_tokens ?? 0)) * price.in + u.output_tokens * price.out;
    state.messages.push({ role: "assistant", content: reply.content });
    trace("turn", { turn: state.turns, input_tokens: u.input_tokens, output_tokens: u.output_tokens, costUsd: state.costUsd, stop_reason: reply.stop_reason });
    persist();

    if (reply.stop_reason === "max_tokens") {
      state.error = `cut off at max_tokens (${request.max_tokens})`;
      return end("failed");
    }
    if (!reply.content.some((b) => b.type === "tool_use")) {
      state.output = reply.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
      return end("completed");
    }
  }
}

export function subagent(spec: {
  name: string;
  description: string;
  client: Anthropic;
  tools: Tool[];
  maxTurns: number;
  maxBudgetUsd: number;
  model?: string;
  system?: string;
}): Tool {
  return {
    name: spec.name,
    description: spec.description,
    readOnly: true,
    input_schema: { type: "object", properties: { question: { type: "string" } }, required: ["question"] },
    async run(input, ctx) {
      const question = typeof input["question"] === "string" ? input["question"] : "";
      const options: { model?: string; system?: string } = {};
      if (spec.model !== undefined) options.model = spec.model;
      if (spec.system !== undefined) options.system = spec.system;
      const child = await run(newRun(question, options), spec.tools, {
        client: spec.client,
        maxTurns: spec.maxTurns,
        maxBudgetUsd: spec.maxBudgetUsd,
        signal: ctx.signal,
      });
      if (child.output !== null && child.output.trim() !== "") return child.output;
      return `The ${spec.name} subagent stopped without an answer (${child.status}).`;
    },
  };
}
