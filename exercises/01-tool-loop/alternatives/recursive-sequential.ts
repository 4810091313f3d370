// Written blind from the lesson and the contract by a helper who never read the hidden tests.
/**
 * Tool loop, variant: one model call per recursion level, a switch on stop_reason,
 * and the tools of a turn run one after another. The remaining-call budget is passed
 * down; at zero the function throws instead of calling.
 */
import Anthropic from "@anthropic-ai/sdk";

export type Dispatch = (name: string, input: Record<string, unknown>) => string | Promise<string>;

export interface AgentOptions {
  maxSteps?: number;
  model?: string;
  maxTokens?: number;
  system?: string;
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

export async function agent(
  client: Anthropic,
  goal: string,
  tools: Anthropic.Tool[],
  dispatch: Dispatch,
  opts: AgentOptions = {},
): Promise<string> {
  const cap = opts.maxSteps ?? 12;
  const base: Omit<Anthropic.MessageCreateParamsNonStreaming, "messages"> = {
    model: opts.model ?? "claude-opus-5",
    max_tokens: opts.maxTokens ?? 8192,
    tools,
  };
  if (opts.system !== undefined) base.system = opts.system;

  const turn = async (messages: Anthropic.MessageParam[], left: number): Promise<string> => {
    if (left <= 0) {
      throw new Error(`gave up: the step cap of ${cap} model calls was reached with no final answer`);
    }
    const reply = await client.messages.create({ ...base, messages });

    switch (reply.stop_reason) {
      case "max_tokens":
        throw new Error("the reply was cut off at max_tokens; refusing to return a partial answer");
      case "refusal":
        return "Declined: the model refused this request.";
      case "tool_use":
        break;
      default: {
        let text = "";
        for (const block of reply.content) if (block.type === "text") text += block.text;
        return text;
      }
    }

    const answers: Anthropic.ToolResultBlockParam[] = [];
    for (const block of reply.content) {
      if (block.type !== "tool_use") continue;
      let content: string;
      let failed = false;
      try {
        content = await dispatch(block.name, block.input as Record<string, unknown>);
      } catch (e) {
        content = errorText(e);
        failed = true;
      }
      answers.push(
        failed
          ? { type: "tool_result", tool_use_id: block.id, content, is_error: true }
          : { type: "tool_result", tool_use_id: block.id, content },
      );
    }

    return turn(
      [...messages, { role: "assistant", content: reply.content }, { role: "user", content: answers }],
      left - 1,
    );
  };

  return turn([{ role: "user", content: goal }], cap);
}
