// written blind from the lesson (by a helper who never saw the hidden tests); must pass every hidden test
/**
 * Exercise 12, variant: a small class drives the run as a phase machine
 * ("answer" -> "guard" -> "ask" -> "answer" ...) over the caller's own state object,
 * which it mutates and returns. Repeated reads are found by scanning the transcript
 * with a structural equality check; a tool is not raced against the signal, the signal
 * is handed to it and an abort seen when it settles wins over whatever it returned.
 * Completion is detected by asking pending() about the reply just stored.
 */
import Anthropic from "@anthropic-ai/sdk";
import * as fs from "node:fs";
import * as path from "node:path";
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
  if (typeof opts.system === "string") state.system = opts.system;
  return state;
}

function contentBlocks(msg: Anthropic.MessageParam | undefined): Anthropic.ContentBlockParam[] | null {
  if (!msg || typeof msg.content === "string") return null;
  return msg.content as Anthropic.ContentBlockParam[];
}

function isToolUse(b: Anthropic.ContentBlockParam): b is Anthropic.ToolUseBlockParam {
  return b.type === "tool_use";
}

export function pending(state: RunState): Anthropic.ToolUseBlockParam[] {
  let i = state.messages.length - 1;
  while (i >= 0 && state.messages[i].role !== "assistant") i--;
  if (i < 0) return [];
  const asked = (contentBlocks(state.messages[i]) ?? []).filter(isToolUse);
  const next = state.messages[i + 1];
  const given = next?.role === "user" ? contentBlocks(next) ?? [] : [];
  return asked.filter((call) => !given.some((b) => b.type === "tool_result" && b.tool_use_id === call.id));
}

/** The user message answering the last assistant turn, created on first use. */
function resultsMessage(state: RunState): Anthropic.ContentBlockParam[] {
  const last = state.messages[state.messages.length - 1];
  if (last.role === "user") {
    const blocks = contentBlocks(last);
    if (blocks) return blocks;
  }
  const fresh: Anthropic.ContentBlockParam[] = [];
  state.messages.push({ role: "user", content: fresh });
  return fresh;
}

export function approve(state: RunState, callId: string): RunState {
  if (state.approved.indexOf(callId) === -1) state.approved.push(callId);
  return state;
}

export function reject(state: RunState, callId: string, reason?: string): RunState {
  if (pending(state).every((c) => c.id !== callId)) return state;
  resultsMessage(state).push({ type: "tool_result", tool_use_id: callId, content: reason ?? "" });
  return state;
}

export function save(state: RunState, dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = `${dir}/${state.runId}.json`;
  fs.writeFileSync(file, JSON.stringify(state));
  return file;
}

export function load(dir: string, runId: string): RunState {
  return JSON.parse(fs.readFileSync(path.join(dir, `${runId}.json`), "utf8")) as RunState;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) &&
    sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

type Phase = "answer" | "guard" | "ask";

class Runner {
  private readonly signal: AbortSignal;
  private readonly tools: Map<string, Tool>;

  constructor(private readonly state: RunState, toolList: Tool[], private readonly opts: RunOptions) {
    this.signal = opts.signal ?? new AbortController().signal;
    this.tools = new Map(toolList.map((t) => [t.name, t]));
  }

  private emit(type: string, fields: Record<string, unknown>): void {
    const event: TraceEvent = { runId: this.state.runId, type, at: Date.now(), ...fields };
    if (this.opts.trace) fs.appendFileSync(this.opts.trace, JSON.stringify(event) + "\n");
    this.opts.onEvent?.(event);
  }

  private checkpoint(): void {
    if (this.opts.saveDir) save(this.state, this.opts.saveDir);
  }

  private finish(status: RunStatus, interruption: Interruption | null = null): RunState {
    this.state.status = status;
    this.state.interruption = interruption;
    this.emit("run_stopped", {
      status,
      reason: interruption === null ? null : interruption.type,
      turns: this.state.turns,
      costUsd: this.state.costUsd,
    });
    this.checkpoint();
    return this.state;
  }

  private cancelled(): RunState {
    return this.finish("interrupted", { type: "cancelled", reason: String(this.signal.reason) });
  }

  /** An earlier, successful answer to the same read in this run's transcript. */
  private recall(call: Anthropic.ToolUseBlockParam): string | null {
    const msgs = this.state.messages;
    for (let i = 0; i < msgs.length; i++) {
      if (msgs[i].role !== "assistant") continue;
      for (const b of contentBlocks(msgs[i]) ?? []) {
        if (!isToolUse(b) || b.id === call.id || b.name !== call.name || !sameJson(b.input, call.input)) continue;
        for (const r of contentBlocks(msgs[i + 1]) ?? []) {
          if (r.type === "tool_result" && r.tool_use_id === b.id && r.is_error !== true && typeof r.content === "string") {
            return r.content;
          }
        }
      }
    }
    return null;
  }

  /** Phase "answer": every outstanding call, in order. Returns a final state or null. */
  private async answer(): Promise<RunState | null> {
    for (const call of pending(this.state)) {
      const tool = this.tools.get(call.name);
      const input = (call.input ?? {}) as Record<string, unknown>;
      const ids = { toolName: call.name, callId: call.id };

      if (tool !== undefined && tool.needsApproval === true && !this.state.approved.includes(call.id)) {
        this.emit("approval_required", { ...ids, input });
        return this.finish("interrupted", { type: "approval", callId: call.id, toolName: call.name, input });
      }

      const earlier = tool?.readOnly ? this.recall(call) : null;
      if (earlier !== null) {
        resultsMessage(this.state).push({ type: "tool_result", tool_use_id: call.id, content: earlier });
        this.emit("tool_result", { ...ids, ms: 0, ok: true, cached: true });
        this.checkpoint();
        continue;
      }

      if (this.signal.aborted) return this.cancelled();
      this.emit("tool_start", { ...ids, input });
      const t0 = Date.now();
      let block: Anthropic.ToolResultBlockParam;
      try {
        if (tool === undefined) throw new Error(`unknown tool "${call.name}"`);
        const text = await tool.run(input, {
          signal: this.signal,
          progress: (label: string) => this.emit("tool_progress", { ...ids, label }),
        });
        if (this.signal.aborted) return this.cancelled();
        block = { type: "tool_result", tool_use_id: call.id, content: String(text) };
        this.emit("tool_result", { ...ids, ms: Date.now() - t0, ok: true });
      } catch (caught) {
        if (this.signal.aborted) return this.cancelled();
        const err = caught instanceof Error ? caught : new Error(String(caught));
        this.emit("tool_result", { ...ids, ms: Date.now() - t0, ok: false });
        if (this.opts.toolErrorsAreFatal === true) {
          this.state.error = err.message;
          return this.finish("failed");
        }
        const text = this.opts.toolErrorText ? this.opts.toolErrorText(err) : `Error: ${err.message}`;
        block = { type: "tool_result", tool_use_id: call.id, content: text, is_error: true };
      }
      resultsMessage(this.state).push(block);
      this.checkpoint();
    }
    return null;
  }

  /** Phase "guard": the limits, in the contract's order, before any model call. */
  private guard(): RunState | null {
    const { maxTurns = 20, maxBudgetUsd = Infinity } = this.opts;
    if (this.state.turns >= maxTurns) return this.finish("max_turns_exceeded", { type: "max_turns" });
    if (this.state.costUsd >= maxBudgetUsd) return this.finish("budget_exceeded", { type: "max_budget" });
    if (this.signal.aborted) return this.cancelled();
    return null;
  }

  /** Phase "ask": one model call; the reply's cost is on the books before anything else. */
  private async ask(): Promise<RunState | null> {
    const s = this.state;
    const request: Anthropic.MessageCreateParamsNonStreaming = {
      model: s.model,
      max_tokens: this.opts.maxTokens ?? 1024,
      messages: JSON.parse(JSON.stringify(s.messages)),
    };
    if (s.system !== undefined) request.system = s.system;
    if (this.tools.size > 0) {
      request.tools = [...this.tools.values()].map((t) => ({ name: t.name, description: t.description, input_schema: t.input_schema }));
    }
    let reply: Anthropic.Message;
    try {
      reply = await this.opts.client.messages.create(request, { signal: this.signal });
    } catch (caught) {
      if (this.signal.aborted) return this.cancelled();
      s.error = caught instanceof Error ? caught.message : String(caught);
      return this.finish("failed");
    }
    const u = reply.usage;
    const p = PRICE[s.model] ?? PRICE["claude-opus-5"];
    s.costUsd +=
      u.input_tokens * p.in +
      (u.cache_creation_input_tokens ?? 0) * 1.25 * p.in +
      (u.cache_read_input_tokens ?? 0) * 0.1 * p.in +
      u.output_tokens * p.out;
    s.turns++;
    s.messages.push({ role: "assistant", content: JSON.parse(JSON.stringify(reply.content)) });
    this.emit("turn", {
      turn: s.turns,
      input_tokens: u.input_tokens,
      output_tokens: u.output_tokens,
      costUsd: s.costUsd,
      stop_reason: reply.stop_reason,
    });
    this.checkpoint();

    if (reply.stop_reason === "max_tokens") {
      s.error = "the model's reply was cut off at max_tokens";
      return this.finish("failed");
    }
    if (pending(s).length === 0) {
      let text = "";
      for (const b of reply.content) if (b.type === "text") text += b.text;
      s.output = text;
      return this.finish("completed");
    }
    return null;
  }

  async go(): Promise<RunState> {
    if (this.state.status === "completed" || this.state.status === "failed") {
      this.emit("run_stopped", { status: this.state.status, reason: null, turns: this.state.turns, costUsd: this.state.costUsd });
      return this.state;
    }
    this.state.status = "running";
    this.state.interruption = null;
    let phase: Phase = "answer";
    for (;;) {
      let done: RunState | null;
      switch (phase) {
        case "answer":
          done = await this.answer();
          phase = "guard";
          break;
        case "guard":
          done = this.guard();
          phase = "ask";
          break;
        case "ask":
          done = await this.ask();
          phase = "answer";
          break;
      }
      if (done !== null) return done;
    }
  }
}

export async function run(state: RunState, tools: Tool[], opts: RunOptions): Promise<RunState> {
  return new Runner(state, tools, opts).go();
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
      properties: { question: { type: "string", description: "The question for the subagent." } },
      required: ["question"],
    },
    readOnly: true,
    run: async (input, ctx) => {
      const opts: { model?: string; system?: string } = {};
      if (spec.model !== undefined) opts.model = spec.model;
      if (spec.system !== undefined) opts.system = spec.system;
      const child = await run(newRun(String(input.question ?? ""), opts), spec.tools, {
        client: spec.client,
        maxTurns: spec.maxTurns,
        maxBudgetUsd: spec.maxBudgetUsd,
        signal: ctx.signal,
      });
      if (child.status === "interrupted" && child.interruption?.type === "cancelled") {
        throw new Error(`subagent ${spec.name} cancelled: ${child.interruption.reason}`);
      }
      return child.status === "completed" && child.output !== null
        ? child.output
        : `The subagent stopped without an answer (status ${child.status}).`;
    },
  };
}
