/**
 * Exercise 1: the tool-calling loop. Replace each `throw` with your code; keep the
 * exported names and signatures as they are (the hidden tests import them).
 */
import Anthropic from "@anthropic-ai/sdk";

/** Your tools, behind one function: a tool name and its input in, the result as text out. */
export type Dispatch = (name: string, input: Record<string, unknown>) => string | Promise<string>;

export interface AgentOptions {
  /** Most model calls one run may make. Default 12. */
  maxSteps?: number;
  /** Default "claude-opus-5". */
  model?: string;
  /** max_tokens for every call. Default 8192. */
  maxTokens?: number;
  system?: string;
}

/**
 * Runs `goal` to a final answer: call the model, run the tools it asks for through
 * `dispatch`, send the results back, repeat. Returns the final text.
 *
 * - A reply cut off at max_tokens throws an Error that says so.
 * - A refusal returns a short text saying the model declined.
 * - A tool that throws becomes a tool_result with is_error: true and the error's message.
 * - All of a turn's results go back in ONE user message, one per tool_use id.
 * - More than `maxSteps` model calls throws an Error that says the cap was reached.
 */
export async function agent(
  client: Anthropic,
  goal: string,
  tools: Anthropic.Tool[],
  dispatch: Dispatch,
  opts: AgentOptions = {},
): Promise<string> {
  throw new Error("not implemented");
}
