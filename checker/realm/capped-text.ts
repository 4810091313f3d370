/** Printed text kept up to a cap: what a test's output and report may hold, the rest counted. */

/** The most one test's output or report keeps: enough for any table a lesson prints. */
export const OUTPUT_CAP = 20_000;
export const outputCut = (dropped: number) => `\n… and ${dropped} more characters it printed (cut here)\n`;

export class CappedText {
  private text = "";
  private dropped = 0;

  add(piece: string): void {
    const room = Math.max(0, OUTPUT_CAP - this.text.length);
    this.text += piece.slice(0, room);
    this.dropped += Math.max(0, piece.length - room);
  }

  /** What was added since the last take, marked where it was cut, and empties it. */
  take(): string {
    const text = this.text + (this.dropped > 0 ? outputCut(this.dropped) : "");
    this.text = "";
    this.dropped = 0;
    return text;
  }
}

/**
 * Text kept per test while it runs, for tests that may run side by side. Text for no running
 * test (printed as the code loaded, or late, for a test already taken) waits for the next take.
 */
export class TextsByTest {
  private readonly running = new Map<number, CappedText>();
  private readonly loose = new CappedText();

  start(test: number): void {
    this.running.set(test, new CappedText());
  }

  /** Whether test `test` was started and not yet taken. */
  keeps(test: number | undefined): boolean {
    return test !== undefined && this.running.has(test);
  }

  /** How many tests are started and not yet taken. */
  get size(): number {
    return this.running.size;
  }

  add(text: string, test: number | undefined): void {
    ((test !== undefined && this.running.get(test)) || this.loose).add(text);
  }

  /** What was printed for no running test, then what test `test` printed; the test is no longer running. */
  take(test: number | undefined): string {
    const own = test === undefined ? "" : (this.running.get(test)?.take() ?? "");
    if (test !== undefined) this.running.delete(test);
    return this.loose.take() + own;
  }
}
