/**
 * Tier 3: the semantic cache in front of an SDK call, commented.
 *
 * Anthropic serves no embedding model, so `embed` comes from elsewhere (the chapter
 * uses Voyage AI's voyage-3-large, 1024 numbers per text); here it is whatever
 * function the caller passes. Everything else is ours: normalising, scoring, the
 * namespace, the TTL and the decision of what may be stored.
 */
import Anthropic from "@anthropic-ai/sdk";

export type Embed = (text: string) => Promise<number[] | Float32Array>;

/**
 * `v` scaled to length 1. Enforced here rather than trusted from the provider: one
 * division removes an assumption that, if it broke, would silently move every score.
 */
export function unit(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  const length = Math.hypot(...out);
  if (length === 0) return out; // zeros stay zeros: 0 / 0 would be NaN
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / length;
  return out;
}

/**
 * dot(a, b) / (|a|·|b|) is the cosine; for unit vectors the denominator is 1, so the
 * dot product is enough. The sum starts at 0: reduce without a seed would add a[0]
 * itself instead of a[0]·b[0].
 */
export function cos(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

// Each entry is a promise to repeat an answer verbatim to anyone for TTL seconds, so
// questions about one person, one order or this moment are never stored. Whole words
// only: "dummy" is not "my", "know" is not "now".
const REFUSE = [/\bmy\b/i, /\d{4,}/, /\b(?:now|today|tonight|current|currently|latest)\b/i];

export function cacheable(question: string, answer: string): boolean {
  return answer.trim().length > 0 && !REFUSE.some((pattern) => pattern.test(question));
}

export interface SemanticCacheOptions {
  embed: Embed;
  threshold?: number;
  ttl?: number;
  now?: () => number;
}

export class SemanticCache {
  hits = 0;
  misses = 0;
  // One list per namespace: another tenant's entries are not even looked at.
  private readonly spaces = new Map<string, { v: Float32Array; answer: string; at: number }[]>();
  private readonly embed: Embed;
  private readonly threshold: number;
  private readonly ttl: number;
  private readonly now: () => number;

  // 0.98 rather than 0.95: the chapter's worst false pair (March/May) scores 0.97, so a
  // 0.95 default would hand out that exact wrong answer.
  constructor({ embed, threshold = 0.98, ttl = 3600, now = () => Date.now() / 1000 }: SemanticCacheOptions) {
    this.embed = embed;
    this.threshold = threshold;
    this.ttl = ttl;
    this.now = now;
  }

  async get(q: string, namespace = "default"): Promise<string | null> {
    const v = unit(await this.embed(q)); // the only embedding a lookup pays for
    const now = this.now();
    const rows = (this.spaces.get(namespace) ?? []).filter((row) => now - row.at < this.ttl);
    this.spaces.set(namespace, rows); // expired rows are dropped, not just skipped
    // The closest row, not the first one above the threshold.
    let best: { answer: string; score: number } | null = null;
    for (const row of rows) {
      const score = cos(v, row.v);
      if (best === null || score > best.score) best = { answer: row.answer, score };
    }
    if (best !== null && best.score >= this.threshold) {
      this.hits += 1;
      return best.answer;
    }
    this.misses += 1; // every lookup that returns nothing is a miss, rows or not
    return null;
  }

  async put(q: string, a: string, namespace = "default"): Promise<void> {
    // Store the vector, not the text: re-embedding rows on every lookup costs n calls.
    const row = { v: unit(await this.embed(q)), answer: a, at: this.now() };
    this.spaces.set(namespace, [...(this.spaces.get(namespace) ?? []), row]);
  }

  get hitRate(): number {
    const lookups = this.hits + this.misses;
    return lookups === 0 ? 0 : this.hits / lookups;
  }
}

/**
 * The cache in front of a model call: a hit returns at once, with no call; a miss asks
 * the model and stores the answer only if it may be repeated to everyone.
 */
export async function ask(client: Anthropic, cache: SemanticCache, question: string, tenant: string): Promise<string> {
  const hit = await cache.get(question, tenant);
  if (hit !== null) return hit;
  const reply = await client.messages.create({
    model: "claude-opus-5",
    max_tokens: 1024,
    messages: [{ role: "user", content: question }],
  });
  const answer = reply.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  if (cacheable(question, answer)) await cache.put(question, answer, tenant);
  return answer;
}
