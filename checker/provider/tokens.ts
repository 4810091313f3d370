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
 * is counted in 100,000-character slices cut at a space. A prompt past the context limit
 * is counted exactly for its first 1,000,000 characters, and the size its error reports
 * is extrapolated from there. o200k_base is not Claude's tokenizer; counts are realistic
 * in size, not identical to the real API's.
 */
import { countTokens } from "./o200k.js";
import { TextMemo } from "./text-memo.js";
import { blocksOf, toolResultText, type CacheControl, type ContentBlock, type MessagesRequest } from "./wire.js";

export const LONG_RUN = 4096;
/** Segments longer than this are counted in slices of SLICE characters. */
const HUGE = 1_000_000;
const SLICE = 100_000;
/** Prompts past the context limit are counted exactly up to this many characters, then estimated. */
export const EXACT_CHARS = 1_000_000;

export interface Segment {
  section: "tools" | "system" | "messages";
  /** The text whose tokens are counted. */
  text: string;
  /** What the prompt cache hashes: the block as sent, without cache_control, keys in order. */
  material: string;
  cacheControl: CacheControl | null;
}

/** Counts of segment texts (a transcript resent every turn is counted once); forgets everything past 4,000,000 characters. */
const memo = new TextMemo<number>(4_000_000);
const LONG_RUN_PATTERN = new RegExp(`\\S{${LONG_RUN + 1},}`, "g");

export function countPieces(text: string): number {
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

/** Segment texts up to this long have their counts remembered. */
const MEMO_MAX = 200_000;

/** The remembered count of `text`, if any. */
export const knownCount = (text: string): number | undefined => (text.length <= MEMO_MAX ? memo.get(text) : undefined);

export function rememberCount(text: string, n: number): void {
  if (text.length <= MEMO_MAX) memo.set(text, n);
}

/** o200k_base tokens in one segment's text, with the long-run rule applied. */
export function countText(text: string): number {
  if (text.length === 0) return 0;
  const hit = knownCount(text);
  if (hit !== undefined) return hit;
  const n = countPieces(text);
  rememberCount(text, n);
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
  const system = typeof request.system === "string" ? [{ type: "text" as const, text: request.system }] : (request.system ?? []);
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

export interface PromptCount {
  /** Tokens per segment; when `complete` is false, only the segments counted before stopping. */
  counts: number[];
  /** The prompt's tokens; when `complete` is false, extrapolated from what was counted. */
  total: number;
  complete: boolean;
}

/**
 * Token counts per segment. Once the total is past `limit` and EXACT_CHARS characters have
 * been counted, counting stops and the total is extrapolated at the tokens per character seen.
 */
export function countSegments(segments: Segment[], limit = Infinity): PromptCount {
  const walk = countingWalk(segments, limit);
  let step = walk.next();
  while (!step.done) step = walk.next(step.value.whole ? countText(step.value.text) : countPieces(step.value.text));
  return step.value;
}

/** One slice a counting walk asks to have counted: a segment's whole text (worth remembering) or a slice of a huge one. */
export interface SliceToCount {
  text: string;
  whole: boolean;
}

/**
 * The walk behind countSegments and its fair twin in fair-count.ts: it yields each slice to
 * count and is sent back its count, so the totals and the extrapolation live in one place
 * whether the counting is done at once or in turns.
 */
export function* countingWalk(segments: Segment[], limit: number): Generator<SliceToCount, PromptCount, number> {
  const counts: number[] = [];
  let total = 0;
  let seen = 0;
  for (const segment of segments) {
    let n = 0;
    for (const slice of slicesOf(segment.text)) {
      const k = yield { text: slice, whole: slice.length === segment.text.length };
      n += k;
      total += k;
      seen += slice.length;
      if (total > limit && seen >= EXACT_CHARS) {
        const chars = segments.reduce((sum, s) => sum + s.text.length, 0);
        return { counts, total: Math.max(total, Math.ceil((total * chars) / seen)), complete: false };
      }
    }
    counts.push(n);
  }
  return { counts, total, complete: true };
}

/** A segment's text whole, or past HUGE characters in SLICE-character slices cut at a space within the slice. */
export function* slicesOf(text: string): Generator<string> {
  if (text.length <= HUGE) {
    yield text;
    return;
  }
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + SLICE);
    if (end < text.length) {
      // Bounded to this slice: an unbounded lastIndexOf rescans the whole text when it has no spaces.
      const space = text.slice(start, end + 1).lastIndexOf(" ");
      if (space > 0) end = start + space;
    }
    yield text.slice(start, end);
    start = end;
  }
}

/** Output tokens of a reply's content blocks. */
export function countReply(content: ContentBlock[]): number {
  return content.reduce((sum, block) => sum + countText(blockText(block)), 0);
}
