// Written blind from the lesson by a helper who never read the hidden tests: a correct solution of its own, and the base its blind mutants are diffs of.
import Anthropic from "@anthropic-ai/sdk";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";

/** The price list quotes dollars per million tokens; a run pays per token. */
const perMillion = (dollars: number) => dollars / 1_000_000;

export const PRICE: Record<string, { in: number; out: number }> = {
  "claude-opus-5": { in: perMillion(5), out: perMillion(25) },
  "claude-sonnet-5": { in: perMillion(3), out: perMillion(15) },
  "claude-haiku-4-5": { in: perMillion(1), out: perMillion(5) },
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

export function newRun(goal: string, opts: { model?: string; system?: string; runId?: string } = {}): RunState {
  const state: RunState = {
    runId: opts.runId ?? randomUUID(),
    model: opts.model ?? "claude-opus-5",
    messages: [{ role: "user", content: goal }],
    turns: 0,
    costUsd: 0,
    status: "running",
    interruption: null,
    approved: [],
    output: null,
    error: null,
  };
  if (opts.system !== undefined) state.system = opts.system;
  return state;
}

function lastAssistantIndex(state: RunState): number {
  for (let i = state.messages.length - 1; i >= 0; i--) if (state.messages[i].role === "assistant") return i;
  return -1;
}

function answeredIds(msg: Anthropic.MessageParam | undefined): Set<string> {
  const ids = new Set<string>();
  if (msg && msg.role === "user" && typeof msg.content !== "string") {
    for (const b of msg.content) if (b.type === "tool_result") ids.add(b.tool_use_id);
  }
  return ids;
}

export function pending(state: RunState): Anthropic.ToolUseBlockParam[] {
  const i = lastAssistantIndex(state);
  if (i < 0) return [];
  const msg = state.messages[i];
  if (msg.role !== "assistant" || typeof msg.content === "string") return [];
  const done = answeredIds(state.messages[i + 1]);
  return msg.content
    .filter((b): b is Anthropic.ToolUseBlockParam => b.type === "tool_use")
    .filter((b) => !done.has(b.id));
}

/** Appends a tool_result to the user message that follows the last assistant turn. */
function addResult(state: RunState, result: Anthropic.ToolResultBlockParam): void {
  const last = state.messages[state.messages.length - 1];
  if (last && last.role === "user" && typeof last.content !== "string" && lastAssistantIndex(state) === state.messages.length - 2) {
    last.content.push(result);
  } else {
    state.messages.push({ role: "user", content: [result] });
  }
}

export function approve(state: RunState, callId: string): RunState {
  if (!state.approved.includes(callId)) state.approved.push(callId);
  return state;
}

export function reject(state: RunState, callId: string, reason?: string): RunState {
  if (pending(state).some((c) => c.id === callId)) {
    addResult(state, { type: "tool_result", tool_use_id: callId, content: reason ?? "" });
  }
  return state;
}

export function save(state: RunState, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${state.runId}.json`);
  writeFileSync(path, JSON.stringify(state));
  return path;
}

export function load(dir: string, runId: string): RunState {
  return JSON.parse(readFileSync(join(dir, `${runId}.json`), "utf8")) as RunState;
}

function priceOf(model: string, usage: Anthropic.Usage): number {
  const p = PRICE[model] ?? PRICE["claude-opus-5"];
  return (
    // Cache writes at 1.25 times the input price, cache reads at a tenth of it.
    p.in * ((usage.input_tokens ?? 0) + 1.25 * (usage.cache_creation_input_tokens ?? 0) + 0.1 * (usage.cache_read_input_tokens ?? 0)) +
    p.out * (usage.output_tokens ?? 0)
  );
}

/** JSON with object keys sorted, so equal inputs give equal text whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj).sort().map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The earlier successful result of the same read-only call in this run, if any. */
function remembered(state: RunState, call: Anthropic.ToolUseBlockParam): string | undefined {
  const key = canonical(call.input);
  for (let i = 0; i < state.messages.length; i++) {
    const m = state.messages[i];
    if (m.role !== "assistant" || typeof m.content === "string") continue;
    for (const b of m.content) {
      if (b.type !== "tool_use" || b.id === call.id || b.name !== call.name) continue;
      if (canonical(b.input) !== key) continue;
      const next = state.messages[i + 1];
      if (!next || next.role !== "user" || typeof next.content === "string") continue;
      for (const r of next.content) {
        if (r.type === "tool_result" && r.tool_use_id === b.id && !r.is_error && typeof r.content === "string") {
          return r.content;
        }
      }
    }
  }
  return undefined;
}

export async function run(state: RunState, tools: Tool[], opts: RunOptions): Promise<RunState> {
  const maxTurns = opts.maxTurns ?? 20;
  const maxBudgetUsd = opts.maxBudgetUsd ?? Infinity;
  const maxTokens = opts.maxTokens ?? 1024;
  const signal = opts.signal ?? new AbortController().signal;
  const errorText = opts.toolErrorText ?? ((err: Error) => `Error: ${err.message}`);
  const byName = new Map(tools.map((t) => [t.name, t]));

  const emit = (type: string, fields: Record<string, unknown>) => {
    const event: TraceEvent = { runId: state.runId, type, at: Date.now(), ...fields };
    if (opts.trace) appendFileSync(opts.trace, JSON.stringify(event) + "\n");
    opts.onEvent?.(event);
  };
  const checkpoint = () => {
    if (opts.saveDir) save(state, opts.saveDir);
  };
  const stop = (status: RunStatus, interruption: Interruption | null = null): RunState => {
    state.status = status;
    state.interruption = interruption;
    emit("run_stopped", { status, reason: interruption ? interruption.type : null, turns: state.turns, costUsd: state.costUsd });
    checkpoint();
    return state;
  };
  const cancelled = () => stop("interrupted", { type: "cancelled", reason: String(signal.reason) });

  if (state.status === "completed" || state.status === "failed") {
    emit("run_stopped", { status: state.status, reason: null, turns: state.turns, costUsd: state.costUsd });
    return state;
  }
  state.status = "running";
  state.interruption = null;

  for (;;) {
    // 1. Answer what the transcript still owes.
    for (const call of pending(state)) {
      const tool = byName.get(call.name);
      const input = (call.input ?? {}) as Record<string, unknown>;
      if (tool?.needsApproval && !state.approved.includes(call.id)) {
        emit("approval_required", { toolName: call.name, callId: call.id, input });
        return stop("interrupted", { type: "approval", callId: call.id, toolName: call.name, input });
      }
      if (signal.aborted) return cancelled();

      if (tool?.readOnly) {
        const earlier = remembered(state, call);
        if (earlier !== undefined) {
          addResult(state, { type: "tool_result", tool_use_id: call.id, content: earlier });
          emit("tool_result", { toolName: call.name, callId: call.id, ms: 0, ok: true, cached: true });
          checkpoint();
          continue;
        }
      }

      emit("tool_start", { toolName: call.name, callId: call.id, input });
      const t0 = Date.now();
      try {
        if (!tool) throw new Error(`unknown tool ${call.name}`);
        const ctx: ToolContext = {
          signal,
          progress: (label) => emit("tool_progress", { toolName: call.name, callId: call.id, label }),
        };
        const out = await tool.run(input, ctx);
        if (signal.aborted) return cancelled();
        addResult(state, { type: "tool_result", tool_use_id: call.id, content: String(out) });
        emit("tool_result", { toolName: call.name, callId: call.id, ms: Date.now() - t0, ok: true });
      } catch (e) {
        if (signal.aborted) return cancelled();
        const err = e instanceof Error ? e : new Error(String(e));
        emit("tool_result", { ok: false, toolName: call.name, callId: call.id, ms: Date.now() - t0 });
        if (!opts.toolErrorsAreFatal) {
          addResult(state, { type: "tool_result", tool_use_id: call.id, is_error: true, content: errorText(err) });
        } else {
          state.error = err.message;
          return stop("failed");
        }
      }
      checkpoint();
    }

    // 2. Limits, in order, before asking the model anything.
    const outOfTurns = state.turns >= maxTurns;
    if (outOfTurns) return stop("max_turns_exceeded", { type: "max_turns" });
    const outOfMoney = state.costUsd >= maxBudgetUsd;
    if (outOfMoney) return stop("budget_exceeded", { type: "max_budget" });
    if (signal.aborted) return cancelled();

    // 3. One model call.
    const params: Anthropic.MessageCreateParamsNonStreaming = {
      model: state.model,
      max_tokens: maxTokens,
      messages: structuredClone(state.messages),
    };
    if (state.system !== undefined) params.system = state.system;
    if (tools.length) params.tools = tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.input_schema }));

    let reply: Anthropic.Message;
    try {
      reply = await opts.client.messages.create(params, { signal });
    } catch (e) {
      if (signal.aborted) return cancelled();
      state.error = e instanceof Error ? e.message : String(e);
      return stop("failed");
    }
    state.turns += 1;
    state.costUsd += priceOf(state.model, reply.usage);
    state.messages.push({ role: "assistant", content: JSON.parse(JSON.stringify(reply.content)) });
    emit("turn", {
      turn: state.turns,
      input_tokens: reply.usage.input_tokens,
      output_tokens: reply.usage.output_tokens,
      costUsd: state.costUsd,
      stop_reason: reply.stop_reason,
    });
    checkpoint();

    if (reply.stop_reason === "max_tokens") {
      state.error = `the reply was cut off at max_tokens (${maxTokens})`;
      return stop("failed");
    }
    if (!reply.content.some((b) => b.type === "tool_use")) {
      state.output = reply.content.map((b) => (b.type === "text" ? b.text : "")).join("");
      return stop("completed");
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
    input_schema: {
      type: "object",
      properties: { question: { type: "string", description: "What the subagent should find out." } },
      required: ["question"],
    },
    readOnly: true,
    async run(input, ctx) {
      const child = newRun(String(input.question ?? ""), { model: spec.model, system: spec.system });
      const done = await run(child, spec.tools, {
        client: spec.client,
        maxTurns: spec.maxTurns,
        maxBudgetUsd: spec.maxBudgetUsd,
        signal: ctx.signal,
      });
      if (ctx.signal.aborted) throw new Error(`subagent cancelled: ${String(ctx.signal.reason)}`);
      if (done.status === "completed" && done.output !== null) return done.output;
      const why = done.error ?? done.interruption?.type ?? done.status;
      return `The subagent ${spec.name} stopped without an answer (${done.status}: ${why}).`;
    },
  };
}
