/** A minimal agent loop over the real SDK: call the model, run the tools it asks for, send the results back. */
import type Anthropic from "@anthropic-ai/sdk";
import { MODEL } from "./support.js";

export type ToolResult = string | { text: string; isError: boolean };
export type Tools = Record<string, (input: Record<string, unknown>) => ToolResult>;

export interface DriveOptions {
  tools?: Tools;
  /** Stops after this many model calls even if the model keeps asking for tools. */
  maxCalls?: number;
  /** Sends each tool_result in a user message of its own (the split-results bug). */
  split?: boolean;
  request?: Partial<Anthropic.MessageCreateParamsNonStreaming>;
}

export interface Run {
  /** Model calls made. */
  calls: number;
  replies: Anthropic.Message[];
  messages: Anthropic.MessageParam[];
  final: Anthropic.Message;
}

function resultBlock(use: Anthropic.ToolUseBlock, tools: Tools): Anthropic.ToolResultBlockParam {
  const tool = tools[use.name];
  const out: ToolResult = tool ? tool(use.input as Record<string, unknown>) : { text: `error: unknown tool ${use.name}`, isError: true };
  const { text, isError } = typeof out === "string" ? { text: out, isError: false } : out;
  return { type: "tool_result", tool_use_id: use.id, content: text, ...(isError ? { is_error: true } : {}) };
}

export async function drive(client: Anthropic, goal: string, opts: DriveOptions = {}): Promise<Run> {
  const tools = opts.tools ?? {};
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: goal }];
  const replies: Anthropic.Message[] = [];
  while (replies.length < (opts.maxCalls ?? 20)) {
    const reply = await client.messages.create({ model: MODEL, max_tokens: 2048, messages: [...messages], ...opts.request });
    replies.push(reply);
    if (reply.stop_reason !== "tool_use") break;
    messages.push({ role: "assistant", content: reply.content });
    const results = reply.content.filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use").map((b) => resultBlock(b, tools));
    if (opts.split) for (const result of results) messages.push({ role: "user", content: [result] });
    else messages.push({ role: "user", content: results });
  }
  return { calls: replies.length, replies, messages, final: replies.at(-1)! };
}
