/**
 * The token rendering documented at the top of checker/provider/tokens.ts, written again
 * from that comment alone (tokens.ts is not imported), so the suite holds the provider to
 * its contract instead of to its own code.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

type Json = Record<string, unknown>;

const LONG_RUN = 4096;

function withoutCacheControl(value: object): string {
  const { cache_control: _ignored, ...rest } = value as Json;
  return JSON.stringify(rest);
}

/** The text one content block is counted over. */
export function blockText(block: object): string {
  const b = block as Json;
  if (b["type"] === "text") return b["text"] as string;
  if (b["type"] === "tool_use") return `${b["name"]} ${JSON.stringify(b["input"])}`;
  if (b["type"] === "tool_result") {
    const content = b["content"];
    if (content === undefined) return "";
    if (typeof content === "string") return content;
    return (content as Json[])
      .filter((part) => part["type"] === "text" && typeof part["text"] === "string")
      .map((part) => part["text"])
      .join("\n");
  }
  return withoutCacheControl(b);
}

interface PromptShape {
  tools?: object[];
  system?: string | Array<{ text: string }>;
  messages: Array<{ content: string | object[] }>;
}

/** Tools, then system blocks, then every message block, as separately counted texts. */
export function promptSegments(request: PromptShape): string[] {
  const tools = (request.tools ?? []).map(withoutCacheControl);
  const system = typeof request.system === "string" ? [request.system] : (request.system ?? []).map((b) => b.text);
  const messages = request.messages.flatMap((m) => (typeof m.content === "string" ? [m.content] : m.content.map(blockText)));
  return [...tools, ...system, ...messages];
}

/** o200k_base tokens of one segment, with runs of more than 4,096 non-space characters counted in pieces. */
export function segmentTokens(text: string): number {
  let total = 0;
  let rest = text;
  for (const run of text.match(new RegExp(`\\S{${LONG_RUN + 1},}`, "g")) ?? []) {
    const at = rest.indexOf(run);
    total += countTokens(rest.slice(0, at));
    for (let i = 0; i < run.length; i += LONG_RUN) total += countTokens(run.slice(i, i + LONG_RUN));
    rest = rest.slice(at + run.length);
  }
  return total + countTokens(rest);
}

export const countSegmentsOf = (segments: string[]): number => segments.reduce((n, s) => n + segmentTokens(s), 0);

/** The prompt's size by the documented rendering. */
export const promptTokens = (request: PromptShape): number => countSegmentsOf(promptSegments(request));

/** A reply's size by the documented rendering. */
export const replyTokens = (content: object[]): number => countSegmentsOf(content.map(blockText));
