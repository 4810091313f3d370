import { EventEmitter } from "node:events";
import { stripVTControlCharacters } from "node:util";
import type { Io } from "../../../src/terminal/io.js";

/** A terminal for Ink in tests: frames written to stdout are kept, keys are written to stdin. */
export class FakeStdout extends EventEmitter {
  readonly frames: string[] = [];
  isTTY = true;
  columns = 100;
  rows = 40;
  write = (frame: string) => {
    this.frames.push(frame);
    return true;
  };
  /** The latest write that drew something, without its escape codes (Ink also writes bare cursor codes). */
  lastFrame = () => {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const text = stripVTControlCharacters(this.frames[i]!);
      if (text.trim() !== "") return text;
    }
    return "";
  };
}

export class FakeStdin extends EventEmitter {
  data: string | null = null;
  rawMode: boolean[] = [];
  constructor(public isTTY = true) {
    super();
  }
  write = (data: string) => {
    this.data = data;
    this.emit("readable");
    this.emit("data", data);
  };
  read = () => {
    const data = this.data;
    this.data = null;
    return data;
  };
  setEncoding() {}
  setRawMode(mode: boolean) {
    this.rawMode.push(mode);
  }
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

export function fakeIo(options: { tty?: boolean; cwd?: string } = {}): Io & { stdout: FakeStdout; stdin: FakeStdin; stderr: FakeStdout } {
  const tty = options.tty ?? true;
  const stdout = new FakeStdout();
  stdout.isTTY = tty;
  const stderr = new FakeStdout();
  return { stdout, stderr, stdin: new FakeStdin(tty), env: {}, cwd: options.cwd ?? process.cwd() } as never;
}
