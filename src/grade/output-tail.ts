import { Writable } from "node:stream";

/** Keeps only the end of what a worker printed: enough to see why it died, never stored. */
export class OutputTail extends Writable {
  private text = "";

  constructor(private readonly keep = 16_384) {
    super();
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text = (this.text + chunk.toString()).slice(-this.keep);
    done();
  }

  tail(): string {
    return this.text;
  }

  reset(): void {
    this.text = "";
  }
}
