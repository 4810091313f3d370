/**
 * How the provider counts tokens. This rendering is the documented contract that
 * `count_tokens`, `usage` and the prompt cache all share:
 *
 *   prompt = tools, then system, then messages, as a list of segments:
 *     tool         JSON.stringify(the tool object without cache_control), keys in the order sent
 *     system       one segment per text block (a string is one block): its text
 *     message      one segment per content block (a string is one text block):
 *                    text         its text
 *                    tool_use     `${name} ${JSON.stringify(input)}`
 *                    tool_result  its text (string, or text parts joined by "\n")
 *                    other        JSON.stringify(the block without cache_control)
 *   reply = one segment per output block, rendered the same way.
 *   tokens = the sum over segments of o200k_base(segment).
 *
 * Roles, ids and message boundaries cost nothing. A run of more than 4,096 characters
 * without whitespace is counted in 4,096-character pieces, because byte-pair merging one
 * enormous "word" costs time quadratic in its length; a segment over 1,000,000 characters
 * is counted in 100,000-character slices cut at a space. o200k_base is not Claude's
 * tokenizer; counts are realistic in size, not identical to the real API's.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import {
  blocksOf,
  toolResultText,
  type CacheControl,
  type ContentBlock,
  type MessagesRequest,
} from "./wire.js";

export const LONG_RUN = 4096;

export interface Segment {
  section: "tools" | "system" | "messages";
  /** The text whose tokens are counted. */
  text: string;
  /** What the prompt cache hashes: the block as sent, without cache_control, keys in order. */
  material: string;
  cacheControl: CacheControl | null;
}

const memo = new Map<string, number>();
const MEMO_LIMIT = 50_000;
const LONG_RUN_PATTERN = new RegExp(`\\S{${LONG_RUN + 1},}`, "g");

function countPieces(text: string): number {
  let total = 0;
  let last = 0;
  for (const match of text.matchAll(LONG_RUN_PATTERN)) {
    if (match.index > last) total += countTokens(text.slice(last, match.index));
    for (let i = 0; i < match[0].length; i += LONG_RUN) total += countTokens(match[0].slice(i, i + LONG_RUN));
    last = match.index + match[0].length;
  }
  if (last < text.length) total += countTokens(text.slice(last));
  return total;
}

/** o200k_base tokens in one segment's text, with the long-run rule applied. */
export function countText(text: string): number {
  if (text.length === 0) return 0;
  const cacheable = text.length <= 200_000;
  if (cacheable) {
    const hit = memo.get(text);
    if (hit !== undefined) return hit;
  }
  const n = countPieces(text);
  if (cacheable) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(text, n);
  }
  return n;
}

function withoutCacheControl(value: object): string {
  const { cache_control: _dropped, ...rest } = value as { cache_control?: unknown };
  return JSON.stringify(rest);
}

/** The text a content block is counted over. */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return String((block as { text: string }).text);
    case "tool_use": {
      const use = block as { name: string; input: unknown };
      return `${use.name} ${JSON.stringify(use.input)}`;
    }
    case "tool_result":
      return toolResultText(block as Parameters<typeof toolResultText>[0]);
    default:
      return withoutCacheControl(block);
  }
}

/** The prompt as an ordered list of segments: tools, then system, then messages. */
export function renderPrompt(request: Pick<MessagesRequest, "tools" | "system" | "messages">): Segment[] {
  const segments: Segment[] = [];
  for (const tool of request.tools ?? []) {
    const json = withoutCacheControl(tool);
    segments.push({ section: "tools", text: json, material: `t:${json}`, cacheControl: tool.cache_control ?? null });
  }
  const system = typeof request.system === "string" ? [{ type: "text" as const, text: request.system }] : request.system ?? [];
  for (const block of system) {
    segments.push({
      section: "system",
      text: block.text,
      material: `s:${withoutCacheControl(block)}`,
      cacheControl: block.cache_control ?? null,
    });
  }
  request.messages.forEach((message, index) => {
    for (const block of blocksOf(message)) {
      segments.push({
        section: "messages",
        text: blockText(block),
        material: `m${index}:${message.role}:${withoutCacheControl(block)}`,
        cacheControl: block.cache_control ?? null,
      });
    }
  });
  return segments;
}

/** Token counts per segment; stops early with null once the running total passes `limit`. */
export function countSegments(segments: Segment[], limit = Infinity): number[] | null {
  const counts: number[] = [];
  let total = 0;
  for (const segment of segments) {
    const n = segment.text.length > 1_000_000 ? countHuge(segment.text, limit - total) : countText(segment.text);
    if (n === null) return null;
    total += n;
    if (total > limit) return null;
    counts.push(n);
  }
  return counts;
}

/** Counts a very long text in 100,000-character slices cut at whitespace, giving up past `budget`. */
function countHuge(text: string, budget: number): number | null {
  let total = 0;
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + 100_000);
    if (end < text.length) {
      const space = text.lastIndexOf(" ", end);
      if (space > start) end = space;
    }
    total += countPieces(text.slice(start, end));
    if (total > budget) return null;
    start = end;
  }
  return total;
}

/** Output tokens of a reply's content blocks. */
export function countReply(content: ContentBlock[]): number {
  return content.reduce((sum, block) => sum + countText(blockText(block)), 0);
}
