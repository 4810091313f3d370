/**
 * MUTANT subagent-empty-answer: a subagent that stopped without an answer hands its parent an empty string.
 */
import Anthropic from "@anthropic-ai/sdk";
import { randomUUID } from "node:crypto";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The price list quotes dollars per million tokens; a run pays per token. */
const perMillion = (dollars: number) => dollars / 1_000_000;

export const PRICE: Record<string, { in: number; out: number }> = {
  "claude-opus-5": { in: perMillion(5), out: perMillion(25) },
  "claude-sonnet-5": { in: perMillion(3), out: perMillion(15) },
  "claude-haiku-4-5": { in: perMillion(1), out: perMillion(5) },
};

/** "running" until one of the five exits; "interrupted" runs can be resumed. */
export type RunStatus = "running" | "interrupted" | "completed" | "failed" | "budget_exceeded" | "max_turns_exceeded";
/** Why a run paused or stopped short, kept on the state so a caller can act on it. */
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

type Block = Anthropic.ContentBlockParam;
type ToolUse = Anthropic.ToolUseBlockParam;
type ToolResult = Anthropic.ToolResultBlockParam;

const RESUMABLE: RunStatus[] = ["max_turns_exceeded", "budget_exceeded", "interrupted"];
const blocks = (m: Anthropic.MessageParam): Block[] => (typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content);
const results = (s: RunState) => s.messages.filter((m) => m.role === "user").flatMap(blocks).filter((b): b is ToolResult => b.type === "tool_result");

function cost(model: string, u: Anthropic.Usage): number {
  const p = PRICE[model] ?? PRICE["claude-opus-5"]!;
  return u.input_tokens * p.in + u.output_tokens * p.out + (u.cache_creation_input_tokens ?? 0) * p.in * 1.25 + (u.cache_read_input_tokens ?? 0) * p.in * 0.1;
}

export function newRun(goal: string, opts: { model?: string; system?: string; runId?: string } = {}): RunState {
  const state: RunState = {
    runId: opts.runId ?? randomUUID(), model: opts.model ?? "claude-opus-5", messages: [{ role: "user", content: goal }],
    turns: 0, costUsd: 0, status: "running", interruption: null, approved: [], output: null, error: null,
  };
  if (opts.system !== undefined) state.system = opts.system;
  return state;
}

export function pending(state: RunState): ToolUse[] {
  const lastAssistant = state.messages.findLastIndex((m) => m.role === "assistant");
  if (lastAssistant < 0) return [];
  const answered = new Set(results(state).map((r) => r.tool_use_id));
  return blocks(state.messages[lastAssistant]!).filter((b): b is ToolUse => b.type === "tool_use" && !answered.has(b.id));
}

/** Appends a result to the user message that follows the last assistant turn (all of a turn's results share it). */
function answer(state: RunState, result: ToolResult): void {
  const last = state.messages.at(-1);
  if (last?.role === "user" && Array.isArray(last.content)) last.content.push(result);
  else state.messages.push({ role: "user", content: [result] });
}

export function approve(state: RunState, callId: string): RunState {
  if (!state.approved.includes(callId)) state.approved.push(callId);
  return state;
}

export function reject(state: RunState, callId: string, reason?: string): RunState {
  answer(state, { type: "tool_result", tool_use_id: callId, content: reason ?? "" });
  return state;
}

export function save(state: RunState, dir: string): string {
  const file = join(dir, `${state.runId}.json`);
  writeFileSync(file, JSON.stringify(state));
  return file;
}

export function load(dir: string, runId: string): RunState {
  return JSON.parse(readFileSync(join(dir, `${runId}.json`), "utf8")) as RunState;
}

export async function run(state: RunState, tools: Tool[], opts: RunOptions): Promise<RunState> {
  if (state.status !== "running" && !RESUMABLE.includes(state.status)) return state;
  const { maxTurns = 20, maxBudgetUsd = Infinity, maxTokens = 1024, signal = new AbortController().signal } = opts;
  const byName = new Map(tools.map((t) => [t.name, t]));
  const emit = (type: string, fields: Record<string, unknown> = {}) => {
    const event: TraceEvent = { runId: state.runId, type, at: Date.now(), ...fields };
    if (opts.trace) appendFileSync(opts.trace, JSON.stringify(event) + "\n");
    opts.onEvent?.(event);
  };
  const checkpoint = () => opts.saveDir && save(state, opts.saveDir);
  const stop = (status: RunStatus, interruption: Interruption | null = null) => {
    Object.assign(state, { status, interruption });
    emit("run_stopped", { status, reason: interruption?.type ?? null, turns: state.turns, costUsd: state.costUsd });
    checkpoint();
    return state;
  };
  const cancelled = () => stop("interrupted", { type: "cancelled", reason: String(signal.reason) });
  Object.assign(state, { status: "running", interruption: null });

  while (true) {
    for (const call of pending(state)) {
      const tool = byName.get(call.name);
      const input = (call.input ?? {}) as Record<string, unknown>;
      if (tool?.needsApproval && !state.approved.includes(call.id)) {
        emit("approval_required", { toolName: call.name, callId: call.id, input });
        return stop("interrupted", { type: "approval", callId: call.id, toolName: call.name, input });
      }
      const seen = tool?.readOnly ? remembered(state, call) : undefined;
      if (seen) {
        answer(state, { ...seen, tool_use_id: call.id });
        checkpoint();
        continue;
      }
      emit("tool_start", { toolName: call.name, callId: call.id, input });
      const started = Date.now();
      let result: ToolResult;
      try {
        if (!tool) throw new Error(`unknown tool: ${call.name}`);
        const progress = (label: string) => emit("tool_progress", { toolName: call.name, callId: call.id, label });
        result = { type: "tool_result", tool_use_id: call.id, content: await tool.run(input, { signal, progress }) };
      } catch (err) {
        if (signal.aborted) return cancelled();
        const error = err instanceof Error ? err : new Error(String(err));
        emit("tool_result", { toolName: call.name, callId: call.id, ms: Date.now() - started, ok: false });
        if (opts.toolErrorsAreFatal) {
          state.error = error.message;
          return stop("failed");
        }
        const text = (opts.toolErrorText ?? ((e: Error) => `Error: ${e.message}`))(error);
        answer(state, { type: "tool_result", tool_use_id: call.id, content: text, is_error: true });
        checkpoint();
        continue;
      }
      emit("tool_result", { toolName: call.name, callId: call.id, ms: Date.now() - started, ok: true });
      answer(state, result);
      checkpoint();
    }

    // Both limits are read before every model call, the turn cap first.
    const outOfTurns = state.turns >= maxTurns;
    if (outOfTurns) return stop("max_turns_exceeded", { type: "max_turns" });
    const outOfMoney = state.costUsd >= maxBudgetUsd;
    if (outOfMoney) return stop("budget_exceeded", { type: "max_budget" });
    if (signal.aborted) return cancelled();

    let reply: Anthropic.Message;
    try {
      const params: Anthropic.MessageCreateParamsNonStreaming = {
        model: state.model, max_tokens: maxTokens, messages: state.messages,
        tools: tools.map(({ name, description, input_schema }) => ({ name, description, input_schema })),
      };
      if (state.system !== undefined) params.system = state.system;
      reply = await opts.client.messages.create(params, { signal });
    } catch (err) {
      if (signal.aborted) return cancelled();
      state.error = err instanceof Error ? err.message : String(err);
      return stop("failed");
    }
    state.turns += 1;
    state.costUsd += cost(state.model, reply.usage);
    state.messages.push({ role: "assistant", content: reply.content as Block[] });
    emit("turn", {
      turn: state.turns, input_tokens: reply.usage.input_tokens, output_tokens: reply.usage.output_tokens,
      costUsd: state.costUsd, stop_reason: reply.stop_reason,
    });
    checkpoint();
    if (reply.stop_reason === "max_tokens") {
      state.error = "the reply was cut off at max_tokens";
      return stop("failed");
    }
    if (!reply.content.some((b) => b.type === "tool_use")) {
      state.output = reply.content.map((b) => (b.type === "text" ? b.text : "")).join("");
      return stop("completed");
    }
  }
}

/** The result an earlier call of the same tool with equal input got, if any. */
function remembered(state: RunState, call: ToolUse): ToolResult | undefined {
  const key = JSON.stringify(call.input ?? {});
  const earlier = state.messages
    .filter((m) => m.role === "assistant")
    .flatMap(blocks)
    .filter((b): b is ToolUse => b.type === "tool_use" && b.id !== call.id && b.name === call.name && JSON.stringify(b.input ?? {}) === key)
    .map((b) => b.id);
  return results(state).find((r) => earlier.includes(r.tool_use_id));
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
  const askOneQuestion: Anthropic.Tool.InputSchema = { type: "object", required: ["question"], properties: { question: { type: "string" } } };
  return {
    readOnly: true,
    name: spec.name,
    description: spec.description,
    input_schema: askOneQuestion,
    async run(input, ctx) {
      const child = newRun(String(input["question"] ?? ""), { model: spec.model, system: spec.system });
      const done = await run(child, spec.tools, { client: spec.client, maxTurns: spec.maxTurns, maxBudgetUsd: spec.maxBudgetUsd, signal: ctx.signal });
      return done.output ?? "";
    },
  };
}
