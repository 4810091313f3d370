// written blind from the lesson
/**
 * Semantic cache, variant: entries are grouped per namespace in a Map, the norm comes
 * from Math.hypot, `cos` is the plain dot product (it trusts the caller: the cache
 * always passes vectors it made unit itself), and `cacheable` tokenises the question
 * into \w-runs instead of testing regexes on the whole string.
 */

export type Embed = (text: string) => Promise<number[] | Float32Array>;

export function unit(v: ArrayLike<number>): Float32Array {
  const values = Array.from(v);
  const len = values.length ? Math.hypot(...values) : 0;
  return Float32Array.from(values, (x) => (len > 0 ? x / len : 0));
}

export function cos(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  for (let i = Math.min(a.length, b.length) - 1; i >= 0; i--) dot += a[i] * b[i];
  return dot;
}

const TIME_WORDS = new Set(["now", "today", "tonight", "current", "currently", "latest"]);

export function cacheable(question: string, answer: string): boolean {
  void answer;
  const words = question.toLowerCase().split(/\W+/).filter(Boolean);
  return !words.some((w) => w === "my" || TIME_WORDS.has(w) || /\d{4}/.test(w));
}

export interface SemanticCacheOptions {
  embed: Embed;
  threshold?: number;
  ttl?: number;
  now?: () => number;
}

type Entry = { vec: Float32Array; answer: string; storedAt: number };

export class SemanticCache {
  hits = 0;
  misses = 0;

  private readonly opts: Required<SemanticCacheOptions>;
  private readonly spaces = new Map<string, Entry[]>();

  constructor(opts: SemanticCacheOptions) {
    this.opts = {
      embed: opts.embed,
      threshold: opts.threshold ?? 0.98,
      ttl: opts.ttl ?? 3600,
      now: opts.now ?? (() => Date.now() / 1000),
    };
  }

  async get(q: string, namespace = "default"): Promise<string | null> {
    const vec = unit(await this.opts.embed(q));
    const now = this.opts.now();
    const fresh = (this.spaces.get(namespace) ?? []).filter((e) => now - e.storedAt < this.opts.ttl);
    const best = fresh.reduce<{ score: number; answer: string } | null>((acc, e) => {
      const score = cos(vec, e.vec);
      return acc === null || score > acc.score ? { score, answer: e.answer } : acc;
    }, null);
    if (best !== null && best.score >= this.opts.threshold) {
      this.hits++;
      return best.answer;
    }
    this.misses++;
    return null;
  }

  async put(q: string, a: string, namespace = "default"): Promise<void> {
    const vec = unit(await this.opts.embed(q));
    const list = this.spaces.get(namespace);
    const entry = { vec, answer: a, storedAt: this.opts.now() };
    if (list) list.push(entry);
    else this.spaces.set(namespace, [entry]);
  }

  get hitRate(): number {
    return this.hits + this.misses > 0 ? this.hits / (this.hits + this.misses) : 0;
  }
}
