/** Reading what a LangGraph run sent over the wire, as the scripted provider received it. */
import type Anthropic from "@anthropic-ai/sdk";
import type { ScenarioSession } from "../../../checker/testing/index.js";

type Param = Anthropic.MessageParam;
type Block = Anthropic.ContentBlockParam;

export const blocksOf = (message: Param): Block[] => (typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content);

/** The transcript of the run's last (fullest) request. */
export const lastTranscript = (session: ScenarioSession): Param[] => session.bodies().at(-1)?.messages ?? [];

export const toolUses = (message: Param) => blocksOf(message).filter((b): b is Anthropic.ToolUseBlockParam => b.type === "tool_use");
export const toolResults = (message: Param) => blocksOf(message).filter((b): b is Anthropic.ToolResultBlockParam => b.type === "tool_result");

export function resultText(block: Anthropic.ToolResultBlockParam): string {
  if (block.content === undefined) return "";
  if (typeof block.content === "string") return block.content;
  return block.content.map((part) => ("text" in part ? part.text : "")).join("\n");
}

/** Every text a user message carried (its string content or its text blocks). */
export const userTexts = (messages: Param[]) =>
  messages.filter((m) => m.role === "user").flatMap((m) => blocksOf(m).flatMap((b) => (b.type === "text" ? [b.text] : [])));

/**
 * For each assistant turn that asked for tools: how many user messages before the next
 * assistant turn carried its results, and which of its ids went unanswered.
 */
export function resultCarriers(messages: Param[]): Array<{ asked: number; carriers: number; unanswered: string[] }> {
  return messages.flatMap((message, i) => {
    const asked = message.role === "assistant" ? toolUses(message).map((b) => b.id) : [];
    if (asked.length === 0) return [];
    const end = messages.findIndex((m, j) => j > i && m.role === "assistant");
    const following = messages.slice(i + 1, end < 0 ? undefined : end).filter((m) => m.role === "user");
    const answered = new Set(following.flatMap(toolResults).map((r) => r.tool_use_id));
    const carriers = following.filter((m) => toolResults(m).length > 0).length;
    return [{ asked: asked.length, carriers, unanswered: asked.filter((id) => !answered.has(id)) }];
  });
}
