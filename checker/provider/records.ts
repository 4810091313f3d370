/** The recorded exchanges, in arrival order, in a window bounded by count and by the bytes they carry. */

export interface RecordLimits {
  /** The most exchanges kept; 0 keeps none (a long-running provider that logs to disk). */
  exchanges: number;
  /** The most request and reply bytes kept; the newest exchange is kept even when it alone is larger. */
  bytes: number;
}

/** Enough for any test's own exchanges, small enough that a provider serving for hours stays flat. */
export const DEFAULT_RECORD_LIMITS: RecordLimits = { exchanges: 2_000, bytes: 64 * 1024 * 1024 };

/** Generic over the record so this file need not import the server that defines exchanges. */
export class RecordWindow<Exchange extends { readonly seq: number }> {
  readonly list: Exchange[] = [];
  private readonly sizes = new WeakMap<Exchange, number>();
  private bytes = 0;
  /** How many exchanges fell out of the window since the last reset. */
  forgotten = 0;

  constructor(private readonly limits: RecordLimits) {}

  /** Adds `record` where its seq puts it, so a request that finishes late goes before later arrivals. */
  add(record: Exchange, size: number): void {
    let at = this.list.length;
    while (at > 0 && this.list[at - 1]!.seq > record.seq) at--;
    this.list.splice(at, 0, record);
    this.sizes.set(record, size);
    this.bytes += size;
    this.trim();
  }

  private trim(): void {
    const { exchanges, bytes } = this.limits;
    let drop = 0;
    let freed = 0;
    while (this.list.length - drop > exchanges || (this.bytes - freed > bytes && this.list.length - drop > 1)) {
      freed += this.sizes.get(this.list[drop]!) ?? 0;
      drop++;
    }
    if (drop === 0) return;
    this.list.splice(0, drop);
    this.bytes -= freed;
    this.forgotten += drop;
  }

  clear(): void {
    this.list.length = 0;
    this.bytes = 0;
    this.forgotten = 0;
  }
}
