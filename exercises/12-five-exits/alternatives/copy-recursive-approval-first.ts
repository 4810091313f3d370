// written blind from the lesson (by a helper who never saw the hidden tests); must pass every hidden test
/**
 * Exercise 12, variant: run() works on a deep copy of the state and returns the copy;
 * each iteration is one recursive call of step(). Before any pending call runs, every
 * pending call is screened for approval (the whole turn waits for the person). Repeated
 * reads are answered from a Map rebuilt from the transcript on entry; a tool is raced
 * against the abort signal so Stop returns at once even if the tool is slow to notice.
 * Checkpoints are written atomically (temp file + rename).
 */
import Anthropic from "@anthropic-ai/sdk";
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";

/** USD per token. */
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

/** The whole run, as plain data: JSON.stringify and JSON.parse give it back unchanged. */
export interface RunState {
  runId: string;
  model: string;
  system?: string;
  messages: Anthropic.MessageParam[];
  /** Model calls made so far, across every resume. */
  turns: number;
  costUsd: number;
  status: RunStatus;
  interruption: Interruption | null;
  /** tool_use ids a person approved. */
  approved: string[];
  /** The final answer's text, once completed. */
  output: string | null;
  /** Why the run failed, once failed. */
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

const blocksOf = (m: Anthropic.MessageParam | undefined): Block[] =>
  m && typeof m.content !== "string" ? (m.content as Block[]) : [];

export function newRun(goal: string, opts: { model?: string; system?: string; runId?: string } = {}): RunState {
  return {
    runId: opts.runId ?? `run_${Date.now().toString(36)}_${randomBytes(6).toString("hex")}`,
    model: opts.model ?? "claude-opus-5",
    ...(opts.system !== undefined ? { system: opts.system } : {}),
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

/** Index of the last assistant message, or -1. */
function tailTurn(messages: Anthropic.MessageParam[]): number {
  return messages.map((m) => m.role).lastIndexOf("assistant");
}

export function pending(state: RunState): ToolUse[] {
  const at = tailTurn(state.messages);
  if (at < 0) return [];
  const follower = state.messages[at + 1];
  const answered = new Set(
    follower?.role === "user"
      ? blocksOf(follower).flatMap((b) => (b.type === "tool_result" ? [b.tool_use_id] : []))
      : [],
  );
  return blocksOf(state.messages[at]).flatMap((b) => (b.type === "tool_use" && !answered.has(b.id) ? [b] : []));
}

/** Writes a tool_result into the one user message that answers the last assistant turn. */
function answer(state: RunState, result: ToolResult): void {
  const at = tailTurn(state.messages);
  const follower = state.messages[at + 1];
  if (follower && follower.role === "user" && typeof follower.content !== "string") {
    (follower.content as Block[]).push(result);
  } else {
    state.messages.splice(at + 1, 0, { role: "user", content: [result] });
  }
}

export function approve(state: RunState, callId: string): RunState {
  if (!state.approved.includes(callId)) state.approved = [...state.approved, callId];
  return state;
}

export function reject(state: RunState, callId: string, reason?: string): RunState {
  if (!pending(state).some((c) => c.id === callId)) {
    throw new Error(`reject: ${callId} is not an outstanding tool call of run ${state.runId}`);
  }
  answer(state, { type: "tool_result", tool_use_id: callId, content: reason ?? "" });
  return state;
}

export function save(state: RunState, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const target = join(dir, `${state.runId}.json`);
  const temp = `${target}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(state, null, 2));
  renameSync(temp, target);
  return target;
}

export function load(dir: string, runId: string): RunState {
  return JSON.parse(readFileSync(join(dir, `${runId}.json`), "utf8"));
}

/** Order-insensitive JSON text of a value, used as the read cache's key. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return "[" + v.map(stable).join(",") + "]";
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return "{" + entries.map(([k, x]) => JSON.stringify(k) + ":" + stable(x)).join(",") + "}";
  }
  return JSON.stringify(v) ?? "null";
}
const cacheKey = (name: string, input: unknown) => `${name}\u0000${stable(input)}`;

/** Every successful result already in the transcript, keyed by tool name and input. */
function readsFrom(messages: Anthropic.MessageParam[]): Map<string, string> {
  const calls = new Map<string, string>();
  const memo = new Map<string, string>();
  for (const m of messages) {
    for (const b of blocksOf(m)) {
      if (b.type === "tool_use") calls.set(b.id, cacheKey(b.name, b.input));
      else if (b.type === "tool_result" && !b.is_error && typeof b.content === "string") {
        const key = calls.get(b.tool_use_id);
        if (key !== undefined && !memo.has(key)) memo.set(key, b.content);
      }
    }
  }
  return memo;
}

function turnCost(model: string, u: Anthropic.Usage): number {
  const p = PRICE[model] ?? PRICE["claude-opus-5"];
  const n = (x: number | null | undefined) => x ?? 0;
  return n(u.input_tokens) * p.in + n(u.cache_creation_input_tokens) * p.in * 1.25 +
    n(u.cache_read_input_tokens) * p.in * 0.1 + n(u.output_tokens) * p.out;
}

/** Resolves with the tool's outcome, or with "aborted" the moment the signal fires. */
function raced<T>(work: Promise<T>, signal: AbortSignal): Promise<{ aborted: true } | { aborted: false; value: T }> {
  if (signal.aborted) return Promise.resolve({ aborted: true });
  return new Promise((resolve, rejectP) => {
    const onAbort = () => resolve({ aborted: true });
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => { signal.removeEventListener("abort", onAbort); resolve({ aborted: false, value }); },
      (err) => { signal.removeEventListener("abort", onAbort); rejectP(err); },
    );
  });
}

export async function run(input: RunState, tools: Tool[], opts: RunOptions): Promise<RunState> {
  const state: RunState = structuredClone(input);
  const limits = {
    turns: opts.maxTurns ?? 20,
    usd: opts.maxBudgetUsd ?? Infinity,
    tokens: opts.maxTokens ?? 1024,
  };
  const signal = opts.signal ?? new AbortController().signal;
  const describe = opts.toolErrorText ?? ((e: Error) => `Error: ${e.message}`);
  const toolNamed = (name: string) => tools.find((t) => t.name === name);
  const memo = readsFrom(state.messages);

  function emit(type: string, fields: Record<string, unknown> = {}): void {
    const ev: TraceEvent = { runId: state.runId, type, ...fields, at: Date.now() };
    if (opts.trace !== undefined) appendFileSync(opts.trace, `${JSON.stringify(ev)}\n`);
    if (opts.onEvent) opts.onEvent(ev);
  }
  function persist(): void {
    if (opts.saveDir !== undefined) save(state, opts.saveDir);
  }
  function end(status: RunStatus, why: Interruption | null, error?: string): RunState {
    state.status = status;
    state.interruption = why;
    if (error !== undefined) state.error = error;
    emit("run_stopped", { status, reason: why?.type ?? null, turns: state.turns, costUsd: state.costUsd });
    persist();
    return state;
  }
  const cancel = () => end("interrupted", { type: "cancelled", reason: String(signal.reason) });

  /** Answers one pending call; returns a final state when the run must stop, else null. */
  async function settle(call: ToolUse): Promise<RunState | null> {
    const args = (call.input ?? {}) as Record<string, unknown>;
    const tool = toolNamed(call.name);
    const key = cacheKey(call.name, args);
    if (tool?.readOnly && memo.has(key)) {
      answer(state, { type: "tool_result", tool_use_id: call.id, content: memo.get(key)! });
      persist();
      return null;
    }
    if (signal.aborted) return cancel();
    const began = performance.now();
    emit("tool_start", { toolName: call.name, callId: call.id, input: args });
    try {
      if (!tool) throw new Error(`no tool named ${call.name}`);
      const ctx: ToolContext = {
        signal,
        progress: (label) => emit("tool_progress", { toolName: call.name, callId: call.id, label }),
      };
      const outcome = await raced(Promise.resolve().then(() => tool.run(args, ctx)), signal);
      if (outcome.aborted || signal.aborted) return cancel();
      const text = String(outcome.value);
      answer(state, { type: "tool_result", tool_use_id: call.id, content: text });
      if (tool.readOnly && !memo.has(key)) memo.set(key, text);
      emit("tool_result", { toolName: call.name, callId: call.id, ms: performance.now() - began, ok: true });
    } catch (thrown) {
      if (signal.aborted) return cancel();
      const err = thrown instanceof Error ? thrown : new Error(String(thrown));
      emit("tool_result", { toolName: call.name, callId: call.id, ms: performance.now() - began, ok: false });
      if (opts.toolErrorsAreFatal) return end("failed", null, err.message);
      answer(state, { type: "tool_result", tool_use_id: call.id, content: describe(err), is_error: true });
    }
    persist();
    return null;
  }

  async function step(): Promise<RunState> {
    const outstanding = pending(state);
    // Screen the whole turn before anything in it runs.
    const waiting = outstanding.find((c) => toolNamed(c.name)?.needsApproval && !state.approved.includes(c.id));
    if (waiting) {
      const input = (waiting.input ?? {}) as Record<string, unknown>;
      emit("approval_required", { toolName: waiting.name, callId: waiting.id, input });
      return end("interrupted", { type: "approval", callId: waiting.id, toolName: waiting.name, input });
    }
    for (const call of outstanding) {
      const stopped = await settle(call);
      if (stopped) return stopped;
    }

    if (state.turns >= limits.turns) return end("max_turns_exceeded", { type: "max_turns" });
    if (state.costUsd >= limits.usd) return end("budget_exceeded", { type: "max_budget" });
    if (signal.aborted) return cancel();

    let reply: Anthropic.Message;
    try {
      reply = await opts.client.messages.create(
        {
          model: state.model,
          max_tokens: limits.tokens,
          messages: structuredClone(state.messages),
          ...(state.system !== undefined ? { system: state.system } : {}),
          ...(tools.length > 0
            ? { tools: tools.map(({ name, description, input_schema }) => ({ name, description, input_schema })) }
            : {}),
        },
        { signal },
      );
    } catch (err) {
      if (signal.aborted) return cancel();
      return end("failed", null, err instanceof Error ? err.message : String(err));
    }
    state.costUsd += turnCost(state.model, reply.usage);
    state.turns += 1;
    const content = JSON.parse(JSON.stringify(reply.content)) as Block[];
    state.messages.push({ role: "assistant", content });
    emit("turn", {
      turn: state.turns,
      input_tokens: reply.usage.input_tokens,
      output_tokens: reply.usage.output_tokens,
      costUsd: state.costUsd,
      stop_reason: reply.stop_reason,
    });
    persist();

    switch (true) {
      case reply.stop_reason === "max_tokens":
        return end("failed", null, `reply truncated: stop_reason max_tokens at max_tokens=${limits.tokens}`);
      case !content.some((b) => b.type === "tool_use"):
        state.output = content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
        return end("completed", null);
      default:
        return step();
    }
  }

  if (state.status === "completed" || state.status === "failed") {
    emit("run_stopped", { status: state.status, reason: null, turns: state.turns, costUsd: state.costUsd });
    return state;
  }
  state.status = "running";
  state.interruption = null;
  return step();
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
  const { name, description, client, tools, maxTurns, maxBudgetUsd, model, system } = spec;
  return {
    name,
    description,
    readOnly: true,
    input_schema: { type: "object", properties: { question: { type: "string" } }, required: ["question"] },
    run: async (input, ctx) => {
      const finished = await run(newRun(String(input.question), { model, system }), tools, {
        client,
        maxTurns,
        maxBudgetUsd,
        signal: ctx.signal,
      });
      if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error(String(ctx.signal.reason));
      if (finished.output !== null) return finished.output;
      return `${name} stopped without an answer: ${finished.status}${finished.error ? ` (${finished.error})` : ""}.`;
    },
  };
}
