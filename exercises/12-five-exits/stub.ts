/**
 * Exercise 12: a run as data. Replace each `throw` with your code; keep the exported names
 * and signatures as they are (the hidden tests import them).
 */
import Anthropic from "@anthropic-ai/sdk";

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
  /** Safe to answer a repeat of the same input from the run's memory. */
  readOnly?: boolean;
  /** Stop the run and ask a person before running. */
  needsApproval?: boolean;
  run(input: Record<string, unknown>, ctx: ToolContext): string | Promise<string>;
}

export type TraceEvent = { runId: string; type: string; [field: string]: unknown };

export interface RunOptions {
  client: Anthropic;
  /** Default 20. */
  maxTurns?: number;
  /** Default Infinity. */
  maxBudgetUsd?: number;
  /** max_tokens of every call. Default 1024. */
  maxTokens?: number;
  signal?: AbortSignal;
  /** A tool that throws ends the run as "failed". Default false. */
  toolErrorsAreFatal?: boolean;
  /** The text the model reads when a tool throws. Default: `Error: ${err.message}`. */
  toolErrorText?: (err: Error) => string;
  /** Save the state here (see `save`) after every model reply and every tool result. */
  saveDir?: string;
  /** Append one JSON line per event to this file. */
  trace?: string;
  /** Called with every trace event. */
  onEvent?: (event: TraceEvent) => void;
}

/** A fresh run whose first user message is `goal`. Default model "claude-opus-5". */
export function newRun(goal: string, opts: { model?: string; system?: string; runId?: string } = {}): RunState {
  throw new Error("not implemented");
}

/** The tool_use blocks of the last assistant message that have no tool_result yet. */
export function pending(state: RunState): Anthropic.ToolUseBlockParam[] {
  throw new Error("not implemented");
}

/** Lets the call `callId` run when the run is resumed. */
export function approve(state: RunState, callId: string): RunState {
  throw new Error("not implemented");
}

/** Answers the call `callId` without running it: its tool_result text is `reason` ("" when none). */
export function reject(state: RunState, callId: string, reason?: string): RunState {
  throw new Error("not implemented");
}

/** Writes the state to `${dir}/${runId}.json` and returns that path. */
export function save(state: RunState, dir: string): string {
  throw new Error("not implemented");
}

export function load(dir: string, runId: string): RunState {
  throw new Error("not implemented");
}

/**
 * Runs (or resumes) `state` until it stops, and returns it. Never throws for an API error,
 * a tool error or a limit: the way it stopped is in `status` and `interruption`.
 */
export async function run(state: RunState, tools: Tool[], opts: RunOptions): Promise<RunState> {
  throw new Error("not implemented");
}

/** A read-only tool that answers `{ question }` with a run of its own. */
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
  throw new Error("not implemented");
}
