/** Small builders for writing scenarios: a reply is a few of these, chosen from the context. */
import type { ApiErrorType } from "../errors.js";
import type { ReplyBlock, Scenario, ScenarioContext, ScenarioReply, StopReason, ToolCall } from "./types.js";

export const defineScenario = (scenario: Scenario): Scenario => scenario;

/** Declarations of path options, for a scenario's `options`: { faults: integer(0, 10) }; isOn reads a flag. */
export { decimal, flag, integer, integers, isOn } from "./options.js";

/** Text of an exact size in the provider's own token count. */
export { countText, padToTokens, tokenText } from "./sized-text.js";

export type { ReplyBlock, Scenario, ScenarioContext, ScenarioReply, StopReason, ToolCall } from "./types.js";

/** A text block for use inside `asks`. */
export const say = (text: string): ReplyBlock => ({ type: "text", text });

/** A tool call for use inside `asks`. */
export const call = (name: string, input: Record<string, unknown> = {}): ReplyBlock => ({ type: "tool_use", name, input });

/** The model answers in words and stops. */
export const text = (value: string, stopReason: StopReason = "end_turn"): ScenarioReply => ({
  kind: "message",
  content: [say(value)],
  stopReason,
});

/** The model asks for one or more tools in one turn (optionally after some text). */
export const asks = (...blocks: ReplyBlock[]): ScenarioReply => ({ kind: "message", content: blocks, stopReason: "tool_use" });

/** Shorthand for a reply with a single tool call. */
export const toolUse = (name: string, input: Record<string, unknown> = {}): ScenarioReply => asks(call(name, input));

/** The model declines: empty content, stop_reason "refusal". */
export const refusal = (): ScenarioReply => ({ kind: "message", content: [], stopReason: "refusal" });

/** An HTTP error in the API's shape; the type follows the status unless given. */
export const fault = (status: number, message: string, extra: { type?: ApiErrorType; headers?: Record<string, string> } = {}): ScenarioReply => ({
  kind: "fault",
  status,
  message,
  ...extra,
});

/** The connection is cut: before any header, or part-way through the body. */
export const drop = (when: "before-headers" | "mid-stream"): ScenarioReply => ({ kind: "drop", when });

/** A numeric option from the URL path, or the default. */
export function numberOption(ctx: ScenarioContext, key: string, fallback: number): number {
  const raw = ctx.options[key];
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(value) ? value : fallback;
}

/** Calls of one tool, in order. */
export const callsOf = (ctx: ScenarioContext, name: string): ToolCall[] => ctx.calls.filter((c) => c.name === name);

/** The most recent answered call of a tool, if any. */
export const lastAnswered = (ctx: ScenarioContext, name: string): ToolCall | undefined =>
  callsOf(ctx, name)
    .filter((c) => c.result !== null)
    .at(-1);

/** Filler prose of at least `words` words, for replies that must be long. */
export function filler(words: number, topic = "the run"): string {
  const sentence = `This note records one more detail about ${topic} so that the transcript keeps growing. `;
  const perSentence = sentence.split(" ").length - 1;
  return sentence.repeat(Math.max(1, Math.ceil(words / perSentence))).trim();
}
