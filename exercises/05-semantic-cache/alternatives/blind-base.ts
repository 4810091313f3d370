// Written blind from the lesson by a helper who never read the hidden tests: a correct solution of its own, and the base its blind mutants are diffs of.

export type Embed = (text: string) => Promise<number[] | Float32Array>;

export function unit(v: ArrayLike<number>): Float32Array {
  let sumSq = 0;
  for (let i = 0; i < v.length; i++) sumSq += v[i] * v[i];
  const len = Math.sqrt(sumSq);
  const out = new Float32Array(v.length);
  if (len === 0 || !Number.isFinite(len)) return out;
  for (let i = 0; i < v.length; i++) out[i] = v[i] / len;
  return out;
}

export function cos(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    dot += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  if (aa === 0 || bb === 0) return 0;
  return dot / (Math.sqrt(aa) * Math.sqrt(bb));
}

const PERSONAL = /\bmy\b/i;
const IDENTIFIER = /\d{4,}/;
const TIME_SENSITIVE = /\b(?:now|today|tonight|current|currently|latest)\b/i;

export function cacheable(question: string, answer: string): boolean {
  void answer;
  return !(PERSONAL.test(question) || IDENTIFIER.test(question) || TIME_SENSITIVE.test(question));
}

export interface SemanticCacheOptions {
  embed: Embed;
  threshold?: number;
  ttl?: number;
  now?: () => number;
}

interface Row {
  vector: Float32Array;
  answer: string;
  namespace: string;
  at: number;
}

export class SemanticCache {
  hits = 0;
  misses = 0;

  private readonly embed: Embed;
  private readonly threshold: number;
  private readonly ttl: number;
  private readonly now: () => number;
  private readonly rows: Row[] = [];

  constructor(opts: SemanticCacheOptions) {
    this.embed = opts.embed;
    this.threshold = opts.threshold ?? 0.98;
    this.ttl = opts.ttl ?? 3600;
    this.now = opts.now ?? (() => Date.now() / 1000);
  }

  async get(q: string, namespace = "default"): Promise<string | null> {
    const query = unit(await this.embed(q));
    const t = this.now();
    let best = -Infinity;
    let answer: string | null = null;
    for (let i = 0; i < this.rows.length; i++) {
      const row = this.rows[i];
      if (row.namespace !== namespace) continue;
      if (t - row.at >= this.ttl) continue;
      const score = cos(query, row.vector);
      if (score > best) {
        best = score;
        answer = row.answer;
      }
    }
    if (answer !== null && best >= this.threshold) {
      this.hits += 1;
      return answer;
    }
    this.misses += 1;
    return null;
  }

  async put(q: string, a: string, namespace = "default"): Promise<void> {
    const vector = unit(await this.embed(q));
    this.rows.push({ vector, answer: a, namespace, at: this.now() });
  }

  get hitRate(): number {
    const lookups = this.hits + this.misses;
    return lookups === 0 ? 0 : this.hits / lookups;
  }
}
