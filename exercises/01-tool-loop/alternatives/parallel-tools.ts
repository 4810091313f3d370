/**
 * ALTERNATIVE: a correct loop written another way. The tools of a turn run together with
 * Promise.all, the reply's blocks are copied into request params one by one, and the
 * stop reasons are handled with a switch.
 */
import Anthropic from "@anthropic-ai/sdk";

export type Dispatch = (name: string, input: Record<string, unknown>) => string | Promise<string>;

function asParam(block: Anthropic.ContentBlock): Anthropic.ContentBlockParam {
  if (block.type === "text") return { type: "text", text: block.text };
  if (block.type === "tool_use") return { type: "tool_use", id: block.id, name: block.name, input: block.input };
  return block as Anthropic.ContentBlockParam;
}

async function answer(dispatch: Dispatch, call: Anthropic.ToolUseBlock): Promise<Anthropic.ToolResultBlockParam> {
  try {
    return { type: "tool_result", tool_use_id: call.id, content: String(await dispatch(call.name, call.input as Record<string, unknown>)) };
  } catch (error) {
    return { type: "tool_result", tool_use_id: call.id, content: String((error as Error)?.message ?? error), is_error: true };
  }
}

export async function agent(
  client: Anthropic,
  goal: string,
  tools: Anthropic.Tool[],
  dispatch: Dispatch,
  opts: { maxSteps?: number; model?: string; maxTokens?: number; system?: string } = {},
): Promise<string> {
  const maxSteps = opts.maxSteps ?? 12;
  const history: Anthropic.MessageParam[] = [{ role: "user", content: [{ type: "text", text: goal }] }];
  let calls = 0;
  while (calls < maxSteps) {
    calls++;
    const reply = await client.messages.create({
      model: opts.model ?? "claude-opus-5",
      max_tokens: opts.maxTokens ?? 8192,
      ...(opts.system ? { system: opts.system } : {}),
      tools,
      messages: history,
    });
    switch (reply.stop_reason) {
      case "max_tokens":
        throw new Error("the reply was cut off at max_tokens");
      case "refusal":
        return "The model refused to answer.";
      case "tool_use": {
        history.push({ role: "assistant", content: reply.content.map(asParam) });
        const calls = reply.content.filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
        history.push({ role: "user", content: await Promise.all(calls.map((c) => answer(dispatch, c))) });
        break;
      }
      default:
        return reply.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    }
  }
  throw new Error(`gave up after ${maxSteps} model calls without a final answer`);
}
