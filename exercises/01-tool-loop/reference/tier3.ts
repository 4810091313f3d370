/**
 * Tier 3: the loop written straight against @anthropic-ai/sdk, every guard in sight.
 *
 * Read the four stop_reason checks first. Each is one way a turn can finish, and their
 * order matters: the two that can look like an answer but are not (max_tokens,
 * refusal) come before the one that really is an answer, and only "tool_use" keeps the
 * loop going.
 */
import Anthropic from "@anthropic-ai/sdk";

export type Dispatch = (name: string, input: Record<string, unknown>) => string | Promise<string>;

export interface AgentOptions {
  maxSteps?: number;
  model?: string;
  maxTokens?: number;
  system?: string;
}

export async function agent(
  client: Anthropic,
  goal: string,
  tools: Anthropic.Tool[],
  dispatch: Dispatch,
  opts: AgentOptions = {},
): Promise<string> {
  const { maxSteps = 12, model = "claude-opus-5", maxTokens = 8192, system } = opts;

  // The server remembers nothing between calls: this array IS the agent's memory,
  // and it is sent whole on every call.
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: goal }];

  // The system prompt goes first and never changes during the run, so it is a prefix
  // the prompt cache can reuse; the breakpoint marks where that prefix ends.
  const systemBlocks: Anthropic.TextBlockParam[] | undefined =
    system === undefined ? undefined : [{ type: "text", text: system, cache_control: { type: "ephemeral" } }];

  // A bounded `for`, never `while (true)`: a model that keeps asking for tools would
  // otherwise be served until somebody notices the bill.
  for (let step = 0; step < maxSteps; step++) {
    const reply = await client.messages.create({
      model,
      max_tokens: maxTokens,
      tools,
      messages,
      ...(systemBlocks ? { system: systemBlocks } : {}),
    });

    // 1. Cut off: HTTP 200, and the text reads like an answer. It is not one.
    if (reply.stop_reason === "max_tokens") {
      throw new Error(`The reply hit max_tokens (${maxTokens}) and was cut off; raise the limit or stream it.`);
    }
    // 2. Declined: content may be an empty list, so never index into it here.
    if (reply.stop_reason === "refusal") return "The model declined this request.";
    // 3. Anything else that is not a tool request is the final answer (end_turn,
    //    stop_sequence). Join the text blocks; there may be none, or several.
    if (reply.stop_reason !== "tool_use") {
      return reply.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
    }

    // 4. Tool request. The whole reply goes into the history, tool_use blocks and
    //    all: the results we send next must point at ids the history contains.
    messages.push({ role: "assistant", content: reply.content });

    // Build every result first, then send them together. One result per tool_use id,
    // even when the tool had nothing to say; all of them in one user message, or the
    // transcript teaches the model to ask for one tool per turn.
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of reply.content) {
      if (block.type !== "tool_use") continue;
      try {
        const output = await dispatch(block.name, block.input as Record<string, unknown>);
        results.push({ type: "tool_result", tool_use_id: block.id, content: output });
      } catch (err) {
        // A tool failure is the model's to fix (a typo in a city name, a missing
        // file): hand it the message as text, flagged, and let the run go on.
        const message = err instanceof Error ? err.message : String(err);
        results.push({ type: "tool_result", tool_use_id: block.id, content: `Error: ${message}`, is_error: true });
      }
    }
    messages.push({ role: "user", content: results });
  }

  // Reaching the cap is a failure with a reason, never a result.
  throw new Error(`Step cap reached: ${maxSteps} model calls and still no final answer.`);
}
