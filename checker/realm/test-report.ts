/**
 * What a hidden test prints on purpose with console.log and console.info (the tables its
 * lesson promises), kept per test on the trusted side. Learner code never runs in this
 * thread (it has a realm of its own, host.ts), so nothing it prints can land here.
 */
import { formatWithOptions } from "node:util";
import { CappedText } from "./capped-text.js";

const KEPT = ["log", "info"] as const;

export class TestReport {
  private readonly text = new CappedText();
  private restore: (() => void) | null = null;

  /** From now until take(), what the test prints is kept here instead of reaching vitest's console. */
  start(console: Console = globalThis.console): void {
    this.take();
    const saved = KEPT.map((name) => [name, Object.getOwnPropertyDescriptor(console, name)] as const);
    for (const name of KEPT) console[name] = (...args: unknown[]) => this.text.add(`${formatWithOptions({ colors: false }, ...args)}\n`);
    this.restore = () => {
      for (const [name, own] of saved) {
        if (own) Object.defineProperty(console, name, own);
        else delete (console as Partial<Console>)[name];
      }
    };
  }

  /** What the test printed since start(), capped and marked where cut; the console is its own again. */
  take(): string {
    this.restore?.();
    this.restore = null;
    return this.text.take();
  }
}
