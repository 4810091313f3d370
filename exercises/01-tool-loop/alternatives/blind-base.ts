// Written blind from the lesson by a helper who never read the hidden tests: a correct solution of its own, and the base its blind mutants are diffs of.
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
  const maxSteps = opts.maxSteps ?? 12;
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: goal }];

  for (let step = 0; step < maxSteps; step++) {
    const reply = await client.messages.create({
      model: opts.model ?? "claude-opus-5",
      max_tokens: opts.maxTokens ?? 8192,
      tools,
      messages,
      ...(opts.system !== undefined && { system: opts.system }),
    });

    if (reply.stop_reason === "max_tokens") throw new Error("reply truncated at max_tokens");
    if (reply.stop_reason === "refusal") return "The model declined to answer.";
    if (reply.stop_reason !== "tool_use") {
      return reply.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    }

    messages.push({ role: "assistant", content: reply.content });

    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of reply.content) {
      if (block.type !== "tool_use") continue;
      try {
        const out = await dispatch(block.name, block.input as Record<string, unknown>);
        results.push({ type: "tool_result", tool_use_id: block.id, content: out });
      } catch (e) {
        results.push({ type: "tool_result", tool_use_id: block.id, content: (e as Error).message, is_error: true });
      }
    }
    messages.push({ role: "user", content: results });
  }

  throw new Error(`step cap of ${maxSteps} model calls reached without an answer`);
}
