/** What `lab run`'s parent and child process say to each other, and what a demo task is handed. */

/** Starts a line of stdout that is the demo's own narration, not something the learner's code printed. */
export const NARRATION_MARK = "\u0001";

export interface ChildArgs {
  /** The learner's file, bundled. */
  learner: string;
  /** The exercise's demo task, bundled. */
  demo: string;
  /** The SDK both bundles import, so theirs is one and the same class. */
  sdkUrl: string;
  /** The scripted provider's origin, http://127.0.0.1:PORT. */
  origin: string;
  goal: string | undefined;
  workDir: string;
  traceFile: string;
  /** The hidden tests' helpers (lab:test), for demos that stand on them as their tests do. */
  labTest: string;
  /** The exercise's own compiled support/ (lab:support), when it has one. */
  labSupport: string | null;
}

export type ChildReport = { kind: "returned"; text: string } | { kind: "threw"; text: string } | { kind: "unsettled" };

/**
 * What a demo task (`exercises/NN-slug/demo.ts`, `export default async function demo(impl, kit)`)
 * is handed beside the learner's module. Each demo declares the part of it it uses.
 */
export interface DemoKit {
  /** What `lab run N "goal"` was given; undefined: the demo's own task. */
  goal: string | undefined;
  /** A client of the SDK against one of the scripted provider's scenarios, options in its path. */
  client(scenario: string, options?: Record<string, string | number | boolean>): unknown;
  /** Says a line of the demo's own (what it does, what came back), apart from what the learner's code prints. */
  say(text: string): void;
  /** A folder of the run's own, removed after it. */
  workDir: string;
  /** Where a harness writes its JSONL trace (exercise 12); `lab trace` shows it. */
  traceFile: string;
  /** What the hidden tests import as lab:test. */
  testing(): Promise<Record<string, unknown>>;
  /** What the hidden tests import as lab:support: the exercise's own helpers (an empty module when it has none). */
  support(): Promise<Record<string, unknown>>;
}
