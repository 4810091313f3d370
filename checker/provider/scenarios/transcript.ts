/** Derives a scenario's view of the conversation from the request alone. */
import { blocksOf, isText, isToolResult, isToolUse, toolResultText, type MessagesRequest } from "../wire.js";
import type { ScenarioContext, ToolCall } from "./types.js";

function textOf(request: MessagesRequest, index: number): string {
  const message = request.messages[index];
  if (!message) return "";
  return blocksOf(message)
    .filter(isText)
    .map((b) => b.text)
    .join("\n");
}

export function buildContext(request: MessagesRequest, attempt: number, options: Record<string, string>): ScenarioContext {
  const calls: ToolCall[] = [];
  const byId = new Map<string, ToolCall>();
  /** For each assistant turn, the user messages that carried its results. */
  const carriers = new Map<number, Set<number>>();
  let turn = 0;
  let lastUser = -1;

  request.messages.forEach((message, index) => {
    if (message.role === "assistant") {
      for (const block of blocksOf(message).filter(isToolUse)) {
        const toolCall: ToolCall = { id: block.id, name: block.name, input: block.input, turn, result: null };
        calls.push(toolCall);
        byId.set(block.id, toolCall);
      }
      turn += 1;
      return;
    }
    const blocks = blocksOf(message);
    if (blocks.some(isText)) lastUser = index;
    for (const block of blocks.filter(isToolResult)) {
      const toolCall = byId.get(block.tool_use_id);
      if (!toolCall) continue;
      toolCall.result = { text: toolResultText(block), isError: block.is_error === true };
      const set = carriers.get(toolCall.turn) ?? new Set<number>();
      set.add(index);
      carriers.set(toolCall.turn, set);
    }
  });

  const resultsSplit = [...carriers.values()].some((messages) => messages.size > 1);
  return {
    request,
    turn,
    goal: textOf(request, 0),
    lastUserText: textOf(request, lastUser),
    calls,
    resultsSplit,
    attempt,
    options,
  };
}
