/**
 * Prompt caching, emulated. A cache entry is a prefix of the prompt (tools → system →
 * messages, hashed block by block as sent) written at a breakpoint. A later request
 * reads the longest prefix it shares with a live entry, looking back up to 20 blocks
 * from each of its breakpoints, as the real API does. Entries are scoped by API key and
 * model, live 5 minutes (or 1 hour with ttl "1h") and are refreshed by every hit.
 * Prefixes shorter than the model's minimum are never written, and nothing says so.
 *
 * Some request settings are part of the prefix without being blocks of it. As the API
 * documents: turning web search or citations on or off, or switching `speed`, rewrites
 * the system prompt (system and messages are lost, tools kept); changing `tool_choice`
 * or the thinking settings, or adding or removing an image anywhere, loses the messages
 * (tools and system kept). `cacheSalts` reads those settings from a request.
 */
import { createHash } from "node:crypto";
import type { Segment } from "./tokens.js";
import { blocksOf, type MessagesRequest } from "./wire.js";

export const LOOKBACK_BLOCKS = 20;
export const MAX_BREAKPOINTS = 4;
const TTL_MS = { "5m": 5 * 60_000, "1h": 60 * 60_000 } as const;

export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

interface Entry {
  expiresAt: number;
  ttl: Ttl;
}

export type Ttl = keyof typeof TTL_MS;

export interface Breakpoint {
  /** Index of the segment the breakpoint closes. */
  index: number;
  ttl: Ttl;
}

/** Settings mixed into the hashes of one level of the prompt and every level after it. */
export interface CacheSalts {
  system: string;
  messages: string;
}

const NO_SALTS: CacheSalts = { system: "", messages: "" };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function containsImage(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(containsImage);
  if (!isObject(value)) return false;
  return value["type"] === "image" || containsImage(value["content"]);
}

function citationsOn(request: MessagesRequest): boolean {
  return request.messages.some((message) =>
    blocksOf(message).some((block) => block.type === "document" && isObject(block["citations"]) && block["citations"]["enabled"] === true),
  );
}

/** What, besides the blocks themselves, a cached prefix depends on. */
export function cacheSalts(request: MessagesRequest): CacheSalts {
  const webSearch = (request.tools ?? []).some((tool) => typeof tool["type"] === "string" && tool["type"].startsWith("web_search"));
  const system = JSON.stringify({ webSearch, citations: citationsOn(request), speed: request["speed"] ?? "standard" });
  const thinking = isObject(request["thinking"]) && request["thinking"]["type"] !== "disabled" ? request["thinking"] : null;
  const messages = JSON.stringify({
    toolChoice: request["tool_choice"] ?? { type: "auto" },
    thinking,
    images: request.messages.some((message) => containsImage(blocksOf(message))),
  });
  return { system, messages };
}

export interface PromptCacheOptions {
  now: () => number;
  /** Minimum prefix length in tokens before anything is written; per model or one number for all. */
  minTokens: number | Record<string, number>;
}

export class PromptCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: PromptCacheOptions) {}

  minTokensFor(model: string): number {
    const { minTokens } = this.options;
    if (typeof minTokens === "number") return minTokens;
    return minTokens[model] ?? minTokens["default"] ?? 1024;
  }

  clear(): void {
    this.entries.clear();
  }

  /**
   * Splits a prompt's tokens into uncached, written and read, and updates the cache.
   * `breakpoints` are the segments carrying cache_control, the automatic one included.
   */
  apply(scope: string, model: string, segments: Segment[], counts: number[], breakpoints: Breakpoint[], salts: CacheSalts = NO_SALTS): CacheUsage {
    const total = counts.reduce((a, b) => a + b, 0);
    const cumulative: number[] = [];
    counts.reduce((sum, n, i) => (cumulative[i] = sum + n), 0);
    const hashes = chainHashes(segments, salts);
    const key = (i: number) => `${scope}\u0000${model}\u0000${hashes[i]}`;
    const now = this.options.now();

    let readIndex = -1;
    for (const { index: b } of breakpoints) {
      for (let j = b; j >= Math.max(0, b - LOOKBACK_BLOCKS + 1); j--) {
        const entry = this.entries.get(key(j));
        if (entry && entry.expiresAt > now) {
          if (j > readIndex) readIndex = j;
          break;
        }
      }
    }
    if (readIndex >= 0) {
      const entry = this.entries.get(key(readIndex))!;
      entry.expiresAt = now + TTL_MS[entry.ttl];
    }

    const minimum = this.minTokensFor(model);
    const written = { "5m": 0, "1h": 0 };
    let writtenThrough = readIndex;
    for (const { index: b, ttl } of [...breakpoints].sort((x, y) => x.index - y.index)) {
      if (b <= writtenThrough || cumulative[b]! < minimum) continue;
      const from = writtenThrough >= 0 ? cumulative[writtenThrough]! : 0;
      written[ttl] += cumulative[b]! - from;
      this.entries.set(key(b), { expiresAt: now + TTL_MS[ttl], ttl });
      writtenThrough = b;
    }

    const read = readIndex >= 0 ? cumulative[readIndex]! : 0;
    const creation = written["5m"] + written["1h"];
    return {
      input_tokens: total - read - creation,
      cache_creation_input_tokens: creation,
      cache_read_input_tokens: read,
      cache_creation: { ephemeral_5m_input_tokens: written["5m"], ephemeral_1h_input_tokens: written["1h"] },
    };
  }
}

/** hashes[i] identifies the prefix made of segments 0..i, under the settings its level depends on. */
function chainHashes(segments: Segment[], salts: CacheSalts): string[] {
  const saltOf = { tools: "", system: salts.system, messages: `${salts.system}\u0000${salts.messages}` };
  const out: string[] = [];
  let previous = "";
  for (const segment of segments) {
    const salt = saltOf[segment.section];
    previous = createHash("sha256").update(previous).update("\u0000").update(salt).update("\u0000").update(segment.material).digest("hex");
    out.push(previous);
  }
  return out;
}
