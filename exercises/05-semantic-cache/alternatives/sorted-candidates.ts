// written blind from the lesson
/**
 * Semantic cache, variant: vectors are stored as Float64Arrays in parallel arrays
 * (columns instead of rows); the norm is computed scale-safely (divide by the largest
 * magnitude first) and the result copied into a Float32Array; `get` scores every
 * eligible entry, sorts the candidates by score, newest first on ties, and looks
 * only at the top one. `cacheable` is a single alternation regex.
 */

export type Embed = (text: string) => Promise<number[] | Float32Array>;

function norm(v: ArrayLike<number>): number {
  let scale = 0;
  for (let i = 0; i < v.length; i++) scale = Math.max(scale, Math.abs(v[i]));
  if (scale === 0 || !Number.isFinite(scale)) return 0;
  let s = 0;
  for (let i = 0; i < v.length; i++) {
    const r = v[i] / scale;
    s += r * r;
  }
  return scale * Math.sqrt(s);
}

export function unit(v: ArrayLike<number>): Float32Array {
  const n = norm(v);
  return n === 0 ? new Float32Array(v.length) : Float32Array.from({ length: v.length }, (_, i) => v[i] / n);
}

export function cos(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const na = norm(a);
  const nb = norm(b);
  if (na === 0 || nb === 0) return 0;
  let dot = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) dot += (a[i] / na) * (b[i] / nb);
  return dot;
}

const NEVER_STORE = /\b(?:my|now|today|tonight|current|currently|latest)\b|\d{4,}/i;

export function cacheable(question: string, answer: string): boolean {
  void answer;
  return !NEVER_STORE.test(question);
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

  private readonly embed: Embed;
  private readonly threshold: number;
  private readonly ttl: number;
  private readonly clock: () => number;
  private readonly vectors: Float64Array[] = [];
  private readonly answers: string[] = [];
  private readonly spaces: string[] = [];
  private readonly stamps: number[] = [];

  constructor({ embed, threshold = 0.98, ttl = 3600, now = () => Date.now() / 1000 }: SemanticCacheOptions) {
    this.embed = embed;
    this.threshold = threshold;
    this.ttl = ttl;
    this.clock = now;
  }

  async get(q: string, namespace = "default"): Promise<string | null> {
    const query = Float64Array.from(unit(await this.embed(q)));
    const t = this.clock();
    const candidates: { i: number; score: number }[] = [];
    this.vectors.forEach((v, i) => {
      if (this.spaces[i] === namespace && t - this.stamps[i] < this.ttl) {
        candidates.push({ i, score: cos(query, v) });
      }
    });
    candidates.sort((x, y) => y.score - x.score || y.i - x.i);
    const top = candidates[0];
    if (top !== undefined && top.score >= this.threshold) {
      this.hits += 1;
      return this.answers[top.i];
    }
    this.misses += 1;
    return null;
  }

  async put(q: string, a: string, namespace = "default"): Promise<void> {
    const v = await this.embed(q);
    this.vectors.push(Float64Array.from(unit(v)));
    this.answers.push(a);
    this.spaces.push(namespace);
    this.stamps.push(this.clock());
  }

  get hitRate(): number {
    const total = this.hits + this.misses;
    if (total === 0) return 0;
    return this.hits / total;
  }
}
