/**
 * MUTANT system-dropped: the system option is read but never sent.
 */
import Anthropic from "@anthropic-ai/sdk";

export type Dispatch = (name: string, input: Record<string, unknown>) => string | Promise<string>;

export interface AgentOptions {
  /** Most model calls one run may make (12). */
  maxSteps?: number;
  model?: string;
  maxTokens?: number;
  system?: string;
}

const DECLINED = "The model declined this request, so there is no answer to give.";

export async function agent(
  client: Anthropic,
  goal: string,
  tools: Anthropic.Tool[],
  dispatch: Dispatch,
  opts: AgentOptions = {},
): Promise<string> {
  const { maxSteps = 12, model = "claude-opus-5", maxTokens = 8192, system } = opts;
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: goal }];

  for (let step = 0; step < maxSteps; step++) {
    const reply = await client.messages.create({
      model,
      max_tokens: maxTokens,
      tools,
      messages,
    });

    // A cut-off reply arrives with status 200; its text is not an answer.
    if (reply.stop_reason === "max_tokens") {
      throw new Error(`The reply hit max_tokens (${maxTokens}) and was cut off; raise the limit or stream it.`);
    }
    // A refusal may carry no content at all.
    if (reply.stop_reason === "refusal") return DECLINED;
    if (reply.stop_reason !== "tool_use") return textOf(reply.content);

    // Every block goes back, tool_use included, or the results below answer nothing.
    messages.push({ role: "assistant", content: reply.content });
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of reply.content) {
      if (block.type === "tool_use") results.push(await runTool(dispatch, block));
    }
    // One user message for the whole turn, one result per tool_use id.
    messages.push({ role: "user", content: results });
  }
  throw new Error(`Step cap reached: ${maxSteps} model calls and still no final answer.`);
}

/** Runs one tool; a throw becomes an is_error result the model can read and act on. */
async function runTool(dispatch: Dispatch, call: Anthropic.ToolUseBlock): Promise<Anthropic.ToolResultBlockParam> {
  try {
    const content = await dispatch(call.name, call.input as Record<string, unknown>);
    return { type: "tool_result", tool_use_id: call.id, content };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { type: "tool_result", tool_use_id: call.id, content: `Error: ${message}`, is_error: true };
  }
}

function textOf(content: Anthropic.ContentBlock[]): string {
  return content
    .filter((block): block is Anthropic.TextBlock => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}
