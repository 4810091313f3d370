// Written blind from the lesson and the contract by a helper who never read the hidden tests.
/**
 * Tool loop, variant: an unbounded-looking for(;;) whose only exits are answers and
 * errors; the cap is checked right after the reply that used the last allowed call,
 * so that turn's tools are not run (no work whose results could never be sent).
 * Results are collected with reduce, sequentially, into one array.
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
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: goal }];

  for (let used = 0; ; ) {
    if (used >= maxSteps) {
      throw new Error(`maxSteps (${maxSteps}) exhausted before the model gave an answer`);
    }
    const params: Anthropic.MessageCreateParamsNonStreaming = { model, max_tokens: maxTokens, tools, messages };
    if (typeof system === "string") params.system = system;
    const reply = await client.messages.create(params);
    used++;

    const reason = reply.stop_reason;
    if (reason === "max_tokens") throw new Error("truncated output: stop_reason was max_tokens");
    if (reason === "refusal") return "Sorry, the model declined to do this.";
    if (reason !== "tool_use") {
      const texts: string[] = [];
      for (const b of reply.content) if (b.type === "text") texts.push(b.text);
      return texts.join("\n");
    }

    messages.push({ role: "assistant", content: reply.content });
    if (used >= maxSteps) {
      throw new Error(`maxSteps (${maxSteps}) exhausted: the model still wanted tools after ${used} calls`);
    }

    const results = await reply.content.reduce<Promise<Anthropic.ToolResultBlockParam[]>>(
      async (accP, block) => {
        const acc = await accP;
        if (block.type !== "tool_use") return acc;
        try {
          const content = await dispatch(block.name, block.input as Record<string, unknown>);
          acc.push({ type: "tool_result", tool_use_id: block.id, content });
        } catch (err) {
          const content = err instanceof Error ? err.message : `${err}`;
          acc.push({ type: "tool_result", tool_use_id: block.id, content, is_error: true });
        }
        return acc;
      },
      Promise.resolve([]),
    );
    messages.push({ role: "user", content: results });
  }
}
