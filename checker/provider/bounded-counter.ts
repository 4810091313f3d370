/** Counts per key, forgetting the keys least recently counted once it holds `limit` of them. */
export class BoundedCounter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Adds one for `key` and returns its new count. */
  next(key: string): number {
    const count = (this.counts.get(key) ?? 0) + 1;
    // Deleting first moves the key to the end of the Map's order, so the oldest is always first.
    this.counts.delete(key);
    this.counts.set(key, count);
    if (this.counts.size > this.limit) this.counts.delete(this.counts.keys().next().value!);
    return count;
  }

  clear(): void {
    this.counts.clear();
  }
}
