/**
 * Tier 3: a run as data, with the SDK. The run is one JSON-safe object; `run` is a loop
 * over it that can stop in five ways and be called again on three of them.
 *
 *   let state = newRun("Free some disk space.");
 *   state = await run(state, tools, { client, maxBudgetUsd: 0.05, saveDir: "runs" });
 *   if (state.interruption?.type === "approval") {
 *     // hours later, perhaps in another process: load("runs", id), then
 *     state = await run(approve(state, state.interruption.callId), tools, { client });
 *   }
 */
import Anthropic from "@anthropic-ai/sdk";
import { randomUUID } from "node:crypto";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const perMillion = (input: number, output: number) => ({ in: input / 1e6, out: output / 1e6 });

/** USD per token. */
export const PRICE: Record<string, { in: number; out: number }> = {
  "claude-opus-5": perMillion(5, 25),
  "claude-sonnet-5": perMillion(3, 15),
  "claude-haiku-4-5": perMillion(1, 5),
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

type ToolUse = Anthropic.ToolUseBlockParam;
type ToolResult = Anthropic.ToolResultBlockParam;

const contentOf = (m: Anthropic.MessageParam): Anthropic.ContentBlockParam[] =>
  typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;

/** Every tool_result in the transcript, by the id it answers. */
function answers(state: RunState): Map<string, ToolResult> {
  const found = new Map<string, ToolResult>();
  for (const m of state.messages) {
    if (m.role !== "user") continue;
    for (const b of contentOf(m)) if (b.type === "tool_result") found.set(b.tool_use_id, b);
  }
  return found;
}

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

/** The transcript is the source of truth: a tool_use of the latest turn without a result is still owed. */
export function pending(state: RunState): ToolUse[] {
  const last = [...state.messages].reverse().find((m) => m.role === "assistant");
  if (!last) return [];
  const done = answers(state);
  return contentOf(last).filter((b): b is ToolUse => b.type === "tool_use" && !done.has(b.id));
}

/** All results of one turn share the user message right after it, as the API requires. */
function record(state: RunState, result: ToolResult): void {
  const tail = state.messages[state.messages.length - 1];
  if (tail && tail.role === "user" && typeof tail.content !== "string") tail.content.push(result);
  else state.messages.push({ role: "user", content: [result] });
}

export function approve(state: RunState, callId: string): RunState {
  state.approved = [...new Set([...state.approved, callId])];
  return state;
}

/** The decision goes where the model reads: an empty slot would read as success. */
export function reject(state: RunState, callId: string, reason?: string): RunState {
  record(state, { type: "tool_result", tool_use_id: callId, content: reason ?? "" });
  return state;
}

export function save(state: RunState, dir: string): string {
  const file = join(dir, `${state.runId}.json`);
  writeFileSync(file, JSON.stringify(state, null, 2));
  return file;
}

export function load(dir: string, runId: string): RunState {
  return JSON.parse(readFileSync(join(dir, `${runId}.json`), "utf8")) as RunState;
}

function price(model: string, usage: Anthropic.Usage): number {
  const p = PRICE[model] ?? PRICE["claude-opus-5"]!;
  const written = usage.cache_creation_input_tokens ?? 0;
  const read = usage.cache_read_input_tokens ?? 0;
  // A cache write costs 1.25 times the input price, a cache read a tenth of it.
  const input = p.in * (usage.input_tokens + 1.25 * written + 0.1 * read);
  return input + p.out * usage.output_tokens;
}

/** The earlier result of a call with this name and input, if the run already has one. */
function memory(state: RunState, call: ToolUse): ToolResult | undefined {
  const done = answers(state);
  const same = JSON.stringify(call.input);
  for (const m of state.messages) {
    if (m.role !== "assistant") continue;
    for (const b of contentOf(m)) {
      if (b.type === "tool_use" && b.id !== call.id && b.name === call.name && JSON.stringify(b.input) === same && done.has(b.id)) return done.get(b.id);
    }
  }
  return undefined;
}

export async function run(state: RunState, tools: Tool[], opts: RunOptions): Promise<RunState> {
  // completed and failed are final; the other three carry on from where they stopped.
  if (state.status === "completed" || state.status === "failed") return state;
  state.status = "running";
  state.interruption = null;

  const signal = opts.signal ?? new AbortController().signal;
  const maxTurns = opts.maxTurns ?? 20;
  const maxBudgetUsd = opts.maxBudgetUsd ?? Infinity;
  const errorText = opts.toolErrorText ?? ((err: Error) => `Error: ${err.message}`);
  const toolsByName = new Map(tools.map((t) => [t.name, t] as const));

  const trace = (type: string, fields: Record<string, unknown> = {}): void => {
    const event: TraceEvent = { runId: state.runId, type, at: Date.now(), ...fields };
    if (opts.trace) appendFileSync(opts.trace, `${JSON.stringify(event)}\n`);
    opts.onEvent?.(event);
  };
  const checkpoint = (): void => void (opts.saveDir && save(state, opts.saveDir));
  const stop = (status: RunStatus, interruption: Interruption | null = null): RunState => {
    state.status = status;
    state.interruption = interruption;
    trace("run_stopped", { status, reason: interruption ? interruption.type : null, turns: state.turns, costUsd: state.costUsd });
    checkpoint();
    return state;
  };
  const cancel = () => stop("interrupted", { type: "cancelled", reason: String(signal.reason) });

  for (;;) {
    // 1. Pay what the transcript owes: the resume, the approval and the normal path in one.
    for (const call of pending(state)) {
      const tool = toolsByName.get(call.name);
      const input = call.input as Record<string, unknown>;
      if (tool?.needsApproval && !state.approved.includes(call.id)) {
        trace("approval_required", { toolName: call.name, callId: call.id, input });
        return stop("interrupted", { type: "approval", callId: call.id, toolName: call.name, input });
      }
      // Reads may be served from memory; a write always runs (two ids are two calls).
      const earlier = tool?.readOnly ? memory(state, call) : undefined;
      if (earlier) {
        record(state, { type: "tool_result", tool_use_id: call.id, content: earlier.content ?? "", ...(earlier.is_error ? { is_error: true } : {}) });
        checkpoint();
        continue;
      }
      trace("tool_start", { toolName: call.name, callId: call.id, input });
      const t0 = Date.now();
      try {
        if (!tool) throw new Error(`unknown tool: ${call.name}`);
        const text = await tool.run(input, {
          signal, // the same signal as the HTTP call: Stop reaches the tool
          progress: (label) => trace("tool_progress", { toolName: call.name, callId: call.id, label }),
        });
        trace("tool_result", { toolName: call.name, callId: call.id, ms: Date.now() - t0, ok: true });
        record(state, { type: "tool_result", tool_use_id: call.id, content: text });
      } catch (thrown) {
        // Stopped inside the tool: the call stays pending, and a resume runs it again.
        if (signal.aborted) return cancel();
        const err = thrown instanceof Error ? thrown : new Error(String(thrown));
        trace("tool_result", { ok: false, toolName: call.name, callId: call.id, ms: Date.now() - t0 });
        if (!opts.toolErrorsAreFatal) {
          // The model reads the failure and decides what to do next.
          record(state, { type: "tool_result", tool_use_id: call.id, is_error: true, content: errorText(err) });
        } else {
          state.error = err.message;
          return stop("failed");
        }
      }
      checkpoint();
    }

    // 2. The limits, BEFORE asking: the overshoot is at most the one turn already paid.
    // Both limits are read before every model call, the turn cap first.
    const outOfTurns = state.turns >= maxTurns;
    if (outOfTurns) return stop("max_turns_exceeded", { type: "max_turns" });
    const outOfMoney = state.costUsd >= maxBudgetUsd;
    if (outOfMoney) return stop("budget_exceeded", { type: "max_budget" });
    if (signal.aborted) return cancel();

    // 3. One model call; its cost is on the books before anything else happens.
    let reply: Anthropic.Message;
    try {
      reply = await opts.client.messages.create(
        {
          model: state.model,
          max_tokens: opts.maxTokens ?? 1024,
          messages: state.messages,
          tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.input_schema })),
          ...(state.system === undefined ? {} : { system: state.system }),
        },
        { signal },
      );
    } catch (err) {
      if (signal.aborted) return cancel();
      state.error = err instanceof Error ? err.message : String(err);
      return stop("failed");
    }
    state.turns += 1;
    state.costUsd += price(state.model, reply.usage);
    state.messages.push({ role: "assistant", content: reply.content });
    trace("turn", {
      turn: state.turns,
      input_tokens: reply.usage.input_tokens,
      output_tokens: reply.usage.output_tokens,
      costUsd: state.costUsd,
      stop_reason: reply.stop_reason,
    });
    checkpoint();

    if (reply.stop_reason === "max_tokens") {
      state.error = `the reply was cut off at max_tokens (${opts.maxTokens ?? 1024})`;
      return stop("failed");
    }
    if (!reply.content.some((b) => b.type === "tool_use")) {
      state.output = reply.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
      return stop("completed");
    }
  }
}

/** A whole agent behind a tool: its own transcript and limits, the caller's signal. */
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
      const child = await run(newRun(String(input["question"] ?? ""), { model: spec.model, system: spec.system }), spec.tools, {
        client: spec.client,
        maxTurns: spec.maxTurns,
        maxBudgetUsd: spec.maxBudgetUsd,
        signal: ctx.signal,
      });
      return child.output ?? `The subagent stopped without an answer: ${child.status}.`;
    },
  };
}
