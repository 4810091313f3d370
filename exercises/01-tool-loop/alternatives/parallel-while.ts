// Written blind from the lesson and the contract by a helper who never read the hidden tests.
/**
 * Tool loop, variant: a while loop with a call counter, and every tool of a turn
 * started at once with Promise.all. Each tool is wrapped in its own async try/catch,
 * so a throw (sync or async) becomes an is_error result instead of rejecting the batch.
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
  const limit = opts.maxSteps ?? 12;
  const maxTokens = opts.maxTokens ?? 8192;
  const history: Anthropic.MessageParam[] = [{ role: "user", content: goal }];

  let made = 0;
  while (made < limit) {
    made += 1;
    const reply = await client.messages.create({
      model: opts.model ?? "claude-opus-5",
      max_tokens: maxTokens,
      tools,
      messages: history,
      ...(opts.system !== undefined ? { system: opts.system } : {}),
    });

    if (reply.stop_reason === "max_tokens") {
      throw new Error(`output truncated: the reply reached max_tokens (${maxTokens}) before it finished`);
    }
    if (reply.stop_reason === "refusal") {
      return "The model declined to answer this request.";
    }
    if (reply.stop_reason !== "tool_use") {
      return reply.content
        .filter((b): b is Anthropic.TextBlock => b.type === "text")
        .map((b) => b.text)
        .join("");
    }

    history.push({ role: "assistant", content: reply.content });

    const calls = reply.content.filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
    const results = await Promise.all(
      calls.map(async (call): Promise<Anthropic.ToolResultBlockParam> => {
        try {
          const out = await dispatch(call.name, call.input as Record<string, unknown>);
          return { type: "tool_result", tool_use_id: call.id, content: out };
        } catch (e) {
          return {
            type: "tool_result",
            tool_use_id: call.id,
            content: e instanceof Error ? e.message : String(e),
            is_error: true,
          };
        }
      }),
    );
    history.push({ role: "user", content: results });
  }

  throw new Error(`step cap reached: ${limit} model calls went by without a final answer`);
}
