import type { ApiErrorType } from "../errors.js";
import type { MessagesRequest } from "../wire.js";

export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "refusal" | "pause_turn";

/** One tool call the model made and, once the harness answered it, what came back. */
export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** Index of the assistant message that asked for it. */
  turn: number;
  result: { text: string; isError: boolean } | null;
}

/** Everything a scenario may look at: the request, and views derived from it. No hidden state. */
export interface ScenarioContext {
  request: MessagesRequest;
  /** How many assistant messages the conversation already holds. */
  turn: number;
  /** The first user message's text: the goal. */
  goal: string;
  /** The text of the latest user message (tool results excluded). */
  lastUserText: string;
  /** Every tool call in the transcript, in order, with its result when there is one. */
  calls: ToolCall[];
  /** True when some turn's tool results came back spread over several user messages. */
  resultsSplit: boolean;
  /** How many times this exact request has arrived (1 on the first try); resettable. */
  attempt: number;
  /** Options from the URL path: /s/NAME/key=value/… */
  options: Record<string, string>;
}

export type ReplyBlock = { type: "text"; text: string } | { type: "tool_use"; name: string; input: Record<string, unknown> };

export type ScenarioReply =
  | { kind: "message"; content: ReplyBlock[]; stopReason?: StopReason }
  | { kind: "fault"; status: number; type?: ApiErrorType; message: string; headers?: Record<string, string> }
  | { kind: "drop"; when: "before-headers" | "mid-stream" };

/** What one URL-path option of a scenario accepts; anything else is refused with a 400 naming it. */
export type OptionSpec =
  | { type: "integer"; min: number; max: number }
  | { type: "number"; min: number; max: number }
  | { type: "integers"; min: number; max: number; most: number }
  | { type: "boolean" };

export interface Scenario {
  name: string;
  /** One line for `lab provider`'s list. */
  description: string;
  /** The path options it reads (/s/NAME/key=value/…), declared so that others are refused. None when absent. */
  options?: Readonly<Record<string, OptionSpec>>;
  reply(ctx: ScenarioContext): ScenarioReply;
}
