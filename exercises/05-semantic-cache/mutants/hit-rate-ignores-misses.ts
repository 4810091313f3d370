/**
 * MUTANT hit-rate-ignores-misses: A lookup that finds stored entries but none close
 * enough is not counted as a miss, so a cache that refuses most questions reports a hit
 * rate near 1 and the threshold looks free.
 */

export type Embed = (text: string) => Promise<number[] | Float32Array>;

export function unit(v: ArrayLike<number>): Float32Array {
  let squares = 0;
  for (let i = 0; i < v.length; i++) squares += v[i]! * v[i]!;
  const length = Math.sqrt(squares);
  const out = new Float32Array(v.length);
  if (length > 0) for (let i = 0; i < v.length; i++) out[i] = v[i]! / length;
  return out;
}

/** The dot product: the cosine similarity when both vectors have length 1, which the cache ensures. */
export function cos(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

const PERSONAL = /\bmy\b/i;
const ID = /\d{4,}/;
const TIME_SENSITIVE = /\b(now|today|tonight|current|currently|latest)\b/i;

/** Only answers that are right for anyone, for the next TTL seconds, may be stored. */
export function cacheable(question: string, answer: string): boolean {
  return answer.trim() !== "" && !PERSONAL.test(question) && !ID.test(question) && !TIME_SENSITIVE.test(question);
}

export interface SemanticCacheOptions {
  embed: Embed;
  threshold?: number;
  ttl?: number;
  now?: () => number;
}

interface Entry {
  vector: Float32Array;
  answer: string;
  namespace: string;
  storedAt: number;
}

export class SemanticCache {
  hits = 0;
  misses = 0;
  private entries: Entry[] = [];
  private readonly embed: Embed;
  private readonly threshold: number;
  private readonly ttl: number;
  private readonly now: () => number;

  constructor(opts: SemanticCacheOptions) {
    this.embed = opts.embed;
    // 0.98, one notch above the worst false pair (March/May at 0.97).
    this.threshold = opts.threshold ?? 0.98;
    this.ttl = opts.ttl ?? 3600;
    this.now = opts.now ?? (() => Date.now() / 1000);
  }

  async get(q: string, namespace = "default"): Promise<string | null> {
    const v = unit(await this.embed(q));
    const now = this.now();
    if (this.entries.length === 0) {
      this.misses++;
      return null;
    }
    this.entries = this.entries.filter((e) => now - e.storedAt < this.ttl);
    let best: Entry | null = null;
    let bestScore = -Infinity;
    for (const entry of this.entries) {
      if (entry.namespace !== namespace) continue; // another tenant's answers never match
      const score = cos(v, entry.vector);
      if (score > bestScore) [best, bestScore] = [entry, score];
    }
    if (best && bestScore >= this.threshold) {
      this.hits++;
      return best.answer;
    }
    return null;
  }

  async put(q: string, a: string, namespace = "default"): Promise<void> {
    this.entries.push({ vector: unit(await this.embed(q)), answer: a, namespace, storedAt: this.now() });
  }

  get hitRate(): number {
    const lookups = this.hits + this.misses;
    return lookups === 0 ? 0 : this.hits / lookups;
  }
}
