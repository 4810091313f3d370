/**
 * What a hidden test prints on purpose with console.log and console.info (the tables its
 * lesson promises), kept per test on the trusted side. Learner code never runs in this
 * thread (it has a realm of its own, host.ts), so nothing it prints can land here. Tests of a
 * file may run side by side: what is printed is kept for the test whose work printed it.
 */
import { formatWithOptions } from "node:util";
import { TextsByTest } from "./capped-text.js";
import { testContext } from "./test-context.js";

const KEPT = ["log", "info"] as const;

export class TestReport {
  private readonly texts = new TextsByTest();
  private restore: (() => void) | null = null;

  constructor(
    private readonly console: Console = globalThis.console,
    /** The test whose work is running now (see test-context.ts). */
    private readonly current: () => number | undefined = testContext.current,
  ) {}

  /** From now until take(test), what test `test` prints is kept here instead of reaching vitest's console. */
  start(test: number): void {
    this.texts.start(test);
    if (!this.restore) this.capture();
  }

  /** What test `test` printed since start(test), capped and marked where cut; with no test kept, the console is its own again. */
  take(test: number): string {
    // Only a kept test's text is ever added here: the rest reaches the console.
    const text = this.texts.take(test);
    if (this.texts.size === 0) {
      this.restore?.();
      this.restore = null;
    }
    return text;
  }

  private capture(): void {
    const console = this.console;
    const saved = KEPT.map((name) => [name, Object.getOwnPropertyDescriptor(console, name), console[name]] as const);
    for (const [name, , original] of saved) {
      console[name] = (...args: unknown[]) => {
        const test = this.current();
        if (this.texts.keeps(test)) this.texts.add(`${formatWithOptions({ colors: false }, ...args)}\n`, test);
        else original.apply(console, args);
      };
    }
    this.restore = () => {
      for (const [name, own] of saved) {
        if (own) Object.defineProperty(console, name, own);
        else delete (console as Partial<Console>)[name];
      }
    };
  }
}
