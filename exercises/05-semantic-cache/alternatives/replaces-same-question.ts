/**
 * Exercise 5, written from the lesson for the points it leaves open, each taken the other way
 * from the solution: putting the same question again in a namespace replaces its entry instead
 * of adding a second, and between two equally similar entries the newer one wins. Entries are
 * kept per namespace, keyed by the question.
 */

export type Embed = (text: string) => Promise<number[] | Float32Array>;

export function unit(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  const norm = Math.hypot(...out);
  if (norm === 0) return out.fill(0);
  return out.map((x) => x / norm);
}

export function cos(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const [x, y] = [unit(a), unit(b)];
  let dot = 0;
  x.forEach((value, i) => (dot += value * y[i]!));
  return dot;
}

const WORDS_THAT_DATE = ["now", "today", "tonight", "current", "currently", "latest"];

export function cacheable(question: string, answer: string): boolean {
  if (answer.trim().length === 0) return false;
  const words = question.toLowerCase().split(/[^a-z0-9]+/);
  if (words.includes("my")) return false;
  if (/[0-9]{4}/.test(question)) return false;
  return !words.some((w) => WORDS_THAT_DATE.includes(w));
}

interface Stored {
  vector: Float32Array;
  answer: string;
  at: number;
}

export class SemanticCache {
  hits = 0;
  misses = 0;
  /** namespace → question → entry; a Map keeps insertion order, so later entries come later. */
  private readonly spaces = new Map<string, Map<string, Stored>>();
  private readonly opts: { embed: Embed; threshold: number; ttl: number; now: () => number };

  constructor(opts: { embed: Embed; threshold?: number; ttl?: number; now?: () => number }) {
    this.opts = { threshold: 0.98, ttl: 3600, now: () => Date.now() / 1000, ...stripUndefined(opts), embed: opts.embed };
  }

  async get(q: string, namespace = "default"): Promise<string | null> {
    const asked = unit(await this.opts.embed(q));
    const now = this.opts.now();
    let winner: Stored | undefined;
    let winnerScore = -Infinity;
    for (const entry of this.spaces.get(namespace)?.values() ?? []) {
      if (now - entry.at >= this.opts.ttl) continue;
      const score = cos(asked, entry.vector);
      if (score >= winnerScore) [winner, winnerScore] = [entry, score]; // a tie goes to the newer entry
    }
    if (winner && winnerScore >= this.opts.threshold) {
      this.hits++;
      return winner.answer;
    }
    this.misses++;
    return null;
  }

  async put(q: string, a: string, namespace = "default"): Promise<void> {
    const vector = unit(await this.opts.embed(q));
    const space = this.spaces.get(namespace) ?? new Map<string, Stored>();
    space.delete(q); // the question again: the new answer replaces the old, and moves to the end
    space.set(q, { vector, answer: a, at: this.opts.now() });
    this.spaces.set(namespace, space);
  }

  get hitRate(): number {
    const total = this.hits + this.misses;
    return total > 0 ? this.hits / total : 0;
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
