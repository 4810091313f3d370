/** A Map from texts to what was worked out from them, forgotten wholesale once its texts add up to `limitChars`. */
export class TextMemo<V> {
  private readonly entries = new Map<string, V>();
  private chars = 0;

  constructor(private readonly limitChars: number) {}

  get(text: string): V | undefined {
    return this.entries.get(text);
  }

  set(text: string, value: V): void {
    if (this.chars + text.length > this.limitChars) {
      this.entries.clear();
      this.chars = 0;
    }
    this.entries.set(text, value);
    this.chars += text.length;
  }
}
