// written blind from the lesson (by a helper who never saw the hidden tests); must pass every hidden test
/**
 * Exercise 12, variant: immutable updates inside run(). Every change (a result, a reply,
 * a stop) produces a new RunState via small pure helpers, so the object passed to run()
 * is never touched and every checkpoint is a consistent snapshot. The limits are a table of
 * guards checked in order; results are kept in the assistant's tool_use order inside
 * the one user message that answers a turn, whoever wrote them (run or reject).
 */
import Anthropic from "@anthropic-ai/sdk";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";

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

type Blocks = Anthropic.ContentBlockParam[];
type Call = Anthropic.ToolUseBlockParam;
type Result = Anthropic.ToolResultBlockParam;

export function newRun(goal: string, opts: { model?: string; system?: string; runId?: string } = {}): RunState {
  const base: RunState = {
    runId: opts.runId || randomUUID(),
    model: opts.model || "claude-opus-5",
    messages: [{ role: "user", content: goal }],
    turns: 0,
    costUsd: 0,
    status: "running",
    interruption: null,
    approved: [],
    output: null,
    error: null,
  };
  return opts.system === undefined ? base : { ...base, system: opts.system };
}

const arr = (m: Anthropic.MessageParam | undefined): Blocks =>
  m === undefined || typeof m.content === "string" ? [] : (m.content as Blocks);

/** Where the current turn sits: its assistant index and the calls it made. */
function currentTurn(messages: Anthropic.MessageParam[]): { at: number; calls: Call[] } {
  for (let at = messages.length - 1; at >= 0; at--) {
    if (messages[at].role === "assistant") {
      return { at, calls: arr(messages[at]).filter((b): b is Call => b.type === "tool_use") };
    }
  }
  return { at: -1, calls: [] };
}

export function pending(state: RunState): Call[] {
  const { at, calls } = currentTurn(state.messages);
  if (at < 0) return [];
  const next = state.messages[at + 1];
  const done = new Set<string>();
  if (next && next.role === "user") for (const b of arr(next)) if (b.type === "tool_result") done.add(b.tool_use_id);
  return calls.filter((c) => !done.has(c.id));
}

/** A new state whose current turn's answer message also holds `result`, in call order. */
function withResult(state: RunState, result: Result): RunState {
  const { at, calls } = currentTurn(state.messages);
  const order = (b: Anthropic.ContentBlockParam) => {
    const i = b.type === "tool_result" ? calls.findIndex((c) => c.id === b.tool_use_id) : -1;
    return i < 0 ? calls.length : i;
  };
  const next = state.messages[at + 1];
  const prior = next && next.role === "user" ? arr(next) : [];
  const merged = [...prior, result].sort((a, b) => order(a) - order(b));
  const messages = [...state.messages.slice(0, at + 1), { role: "user" as const, content: merged }];
  return { ...state, messages };
}

// approve and reject record a person's decision on the object they are given (and return
// it), since a caller may well keep using its own reference; only run() works on copies.
export function approve(state: RunState, callId: string): RunState {
  if (!state.approved.includes(callId)) state.approved = [...state.approved, callId];
  return state;
}

export function reject(state: RunState, callId: string, reason?: string): RunState {
  if (!pending(state).some((c) => c.id === callId)) return state;
  state.messages = withResult(state, { type: "tool_result", tool_use_id: callId, content: reason === undefined ? "" : reason }).messages;
  return state;
}

export function save(state: RunState, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${state.runId}.json`);
  writeFileSync(file, `${JSON.stringify(state)}\n`);
  return file;
}

export function load(dir: string, runId: string): RunState {
  return JSON.parse(readFileSync(join(dir, `${runId}.json`), "utf8")) as RunState;
}

function canon(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon((v as Record<string, unknown>)[k])]));
  }
  return v;
}

/** The first successful result of an earlier call with this name and input. */
function priorAnswer(state: RunState, call: Call): string | undefined {
  const want = JSON.stringify(canon(call.input));
  const twins = new Set<string>();
  for (const m of state.messages) {
    for (const b of arr(m)) {
      if (b.type === "tool_use" && b.id !== call.id && b.name === call.name && JSON.stringify(canon(b.input)) === want) {
        twins.add(b.id);
      } else if (b.type === "tool_result" && twins.has(b.tool_use_id) && !b.is_error && typeof b.content === "string") {
        return b.content;
      }
    }
  }
  return undefined;
}

const costOf = (model: string, u: Anthropic.Usage): number => {
  const { in: pin, out: pout } = PRICE[model] ?? PRICE["claude-opus-5"];
  return (
    (u.input_tokens || 0) * pin +
    (u.cache_creation_input_tokens || 0) * pin * 1.25 +
    (u.cache_read_input_tokens || 0) * pin * 0.1 +
    (u.output_tokens || 0) * pout
  );
};

export async function run(initial: RunState, tools: Tool[], opts: RunOptions): Promise<RunState> {
  const maxTurns = opts.maxTurns ?? 20;
  const maxBudget = opts.maxBudgetUsd ?? Infinity;
  const signal = opts.signal ?? new AbortController().signal;
  const errText = opts.toolErrorText ?? ((e: Error) => `Error: ${e.message}`);
  let s: RunState = initial;

  const emit = (type: string, fields: Record<string, unknown>): void => {
    const event: TraceEvent = { at: Date.now(), runId: s.runId, type, ...fields };
    if (opts.trace) appendFileSync(opts.trace, JSON.stringify(event) + "\n");
    opts.onEvent?.(event);
  };
  const commit = (next: RunState): RunState => {
    s = next;
    if (opts.saveDir) save(s, opts.saveDir);
    return s;
  };
  const stopped = (status: RunStatus, interruption: Interruption | null, patch: Partial<RunState> = {}): RunState => {
    const next = { ...s, ...patch, status, interruption };
    s = next;
    emit("run_stopped", { status, reason: interruption ? interruption.type : null, turns: s.turns, costUsd: s.costUsd });
    return commit(next);
  };
  const cancelled = () => stopped("interrupted", { type: "cancelled", reason: String(signal.reason) });

  if (s.status === "completed" || s.status === "failed") {
    emit("run_stopped", { status: s.status, reason: null, turns: s.turns, costUsd: s.costUsd });
    return s;
  }
  s = { ...s, status: "running", interruption: null };

  const guards: Array<[() => boolean, () => RunState]> = [
    [() => s.turns >= maxTurns, () => stopped("max_turns_exceeded", { type: "max_turns" })],
    [() => s.costUsd >= maxBudget, () => stopped("budget_exceeded", { type: "max_budget" })],
    [() => signal.aborted, cancelled],
  ];

  while (true) {
    for (const call of pending(s)) {
      const tool = tools.find((t) => t.name === call.name);
      const input = (call.input ?? {}) as Record<string, unknown>;
      const tag = { toolName: call.name, callId: call.id };
      if (tool?.needsApproval && !s.approved.includes(call.id)) {
        emit("approval_required", { ...tag, input });
        return stopped("interrupted", { type: "approval", callId: call.id, toolName: call.name, input });
      }
      const remembered = tool?.readOnly ? priorAnswer(s, call) : undefined;
      if (remembered !== undefined) {
        commit(withResult(s, { type: "tool_result", tool_use_id: call.id, content: remembered }));
        continue;
      }
      if (signal.aborted) return cancelled();

      emit("tool_start", { ...tag, input });
      const started = Date.now();
      let outcome: { ok: true; text: string } | { ok: false; err: Error };
      try {
        if (!tool) throw new Error(`the tool ${call.name} does not exist`);
        const text = await tool.run(input, {
          signal,
          progress: (label) => emit("tool_progress", { ...tag, label }),
        });
        outcome = { ok: true, text: String(text) };
      } catch (e) {
        outcome = { ok: false, err: e instanceof Error ? e : new Error(String(e)) };
      }
      // Stop wins: a tool that ended because of it (or after it) leaves its call pending.
      if (signal.aborted) return cancelled();
      emit("tool_result", { ...tag, ms: Date.now() - started, ok: outcome.ok });
      if (outcome.ok) {
        commit(withResult(s, { type: "tool_result", tool_use_id: call.id, content: outcome.text }));
      } else if (opts.toolErrorsAreFatal) {
        return stopped("failed", null, { error: outcome.err.message });
      } else {
        commit(withResult(s, { type: "tool_result", tool_use_id: call.id, content: errText(outcome.err), is_error: true }));
      }
    }

    const tripped = guards.find(([test]) => test());
    if (tripped) return tripped[1]();

    let reply: Anthropic.Message;
    try {
      reply = await opts.client.messages.create(
        {
          model: s.model,
          max_tokens: opts.maxTokens ?? 1024,
          messages: s.messages,
          ...(s.system === undefined ? {} : { system: s.system }),
          ...(tools.length === 0 ? {} : { tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.input_schema })) }),
        },
        { signal },
      );
    } catch (e) {
      if (signal.aborted) return cancelled();
      return stopped("failed", null, { error: e instanceof Error ? e.message : String(e) });
    }
    const content = JSON.parse(JSON.stringify(reply.content)) as Blocks;
    commit({
      ...s,
      turns: s.turns + 1,
      costUsd: s.costUsd + costOf(s.model, reply.usage),
      messages: [...s.messages, { role: "assistant", content }],
    });
    emit("turn", {
      turn: s.turns,
      input_tokens: reply.usage.input_tokens,
      output_tokens: reply.usage.output_tokens,
      costUsd: s.costUsd,
      stop_reason: reply.stop_reason,
    });

    if (reply.stop_reason === "max_tokens") {
      return stopped("failed", null, { error: "truncated: the reply hit max_tokens before it was finished" });
    }
    if (content.every((b) => b.type !== "tool_use")) {
      const output = content.map((b) => (b.type === "text" ? b.text : "")).join("");
      return stopped("completed", null, { output });
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
  const schema: Anthropic.Tool.InputSchema = {
    type: "object",
    properties: { question: { type: "string" } },
    required: ["question"],
  };
  return {
    name: spec.name,
    description: spec.description,
    input_schema: schema,
    readOnly: true,
    async run({ question }, { signal }) {
      const seed = newRun(String(question), {
        ...(spec.model ? { model: spec.model } : {}),
        ...(spec.system !== undefined ? { system: spec.system } : {}),
      });
      const end = await run(seed, spec.tools, {
        client: spec.client,
        maxTurns: spec.maxTurns,
        maxBudgetUsd: spec.maxBudgetUsd,
        signal,
      });
      if (signal.aborted) throw new Error(`cancelled: ${String(signal.reason)}`);
      if (end.status === "completed" && end.output) return end.output;
      const why = end.interruption ? end.interruption.type : end.error ?? "no output";
      return `Subagent stopped without an answer: ${end.status} (${why}).`;
    },
  };
}
