/** The request shapes the provider reads, after validation. Field names are the API's. */

export interface CacheControl {
  type: "ephemeral";
  ttl?: "5m" | "1h";
}

export interface TextBlock {
  type: "text";
  text: string;
  cache_control?: CacheControl | null;
}

export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: CacheControl | null;
}

export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content?: string | Array<{ type: string; text?: string }>;
  is_error?: boolean;
  cache_control?: CacheControl | null;
}

export interface OtherBlock {
  type: string;
  cache_control?: CacheControl | null;
  [key: string]: unknown;
}

export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | OtherBlock;

export interface WireMessage {
  role: "user" | "assistant";
  content: string | ContentBlock[];
}

export interface ToolDefinition {
  name: string;
  input_schema?: Record<string, unknown>;
  cache_control?: CacheControl | null;
  [key: string]: unknown;
}

export interface MessagesRequest {
  model: string;
  max_tokens: number;
  messages: WireMessage[];
  system?: string | TextBlock[];
  tools?: ToolDefinition[];
  stream?: boolean;
  stop_sequences?: string[];
  cache_control?: CacheControl | null;
  [key: string]: unknown;
}

/** A message's content as a list of blocks; a string is one text block. */
export function blocksOf(message: WireMessage): ContentBlock[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

export const isToolUse = (b: ContentBlock): b is ToolUseBlock => b.type === "tool_use";
export const isToolResult = (b: ContentBlock): b is ToolResultBlock => b.type === "tool_result";
export const isText = (b: ContentBlock): b is TextBlock => b.type === "text";

/** The text a tool_result carries: a string, or its text blocks joined by newlines. */
export function toolResultText(block: ToolResultBlock): string {
  if (block.content === undefined) return "";
  if (typeof block.content === "string") return block.content;
  return block.content
    .filter((part) => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n");
}
