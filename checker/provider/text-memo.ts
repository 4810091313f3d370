/**
 * A Map from texts to what was worked out from them, forgotten wholesale once its texts add
 * up to `limitChars`. Each entry also counts `perEntry` characters: a Map entry costs tens of
 * bytes, so a memo of short texts bounded by their characters alone can grow to 30 MB.
 */
export class TextMemo<V> {
  private readonly entries = new Map<string, V>();
  private chars = 0;

  constructor(
    private readonly limitChars: number,
    private readonly perEntry = 0,
  ) {}

  get(text: string): V | undefined {
    return this.entries.get(text);
  }

  set(text: string, value: V): void {
    const cost = text.length + this.perEntry;
    if (this.chars + cost > this.limitChars) {
      this.entries.clear();
      this.chars = 0;
    }
    this.entries.set(text, value);
    this.chars += cost;
  }
}
