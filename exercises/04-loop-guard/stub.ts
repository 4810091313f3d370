/**
 * Exercise 4: the loop guard. Replace each `throw` with your code; keep the exported
 * names and signatures as they are (the hidden tests import them).
 */

export interface LoopGuardOptions {
  /** How many times one call (tool + arguments) may be made before a nudge. Default 3. */
  repeat?: number;
  /** How many times one state snapshot may be seen before a nudge. Default 2. */
  cycle?: number;
  /** How many steps may pass without beating the best progress value. Default 6. */
  stall?: number;
  /** How many checks one run may make in all. Default 40. */
  maxSteps?: number;
}

export class LoopGuard {
  /** How many times `check` has been called. */
  steps = 0;
  /** How many nudges a loop detector has returned. */
  trips = 0;
  /** Set once the step cap is passed; the run is over. */
  halted = false;

  constructor(opts: LoopGuardOptions = {}) {
    throw new Error("not implemented");
  }

  /**
   * Called once per tool call, after the tool ran. Returns null to keep going, or one
   * sentence for the model (a nudge), or, past the step cap, the reason the run ends.
   * Never throws.
   *
   * - step cap: more than maxSteps checks → halted = true, a reason saying "step cap".
   * - repeat: the same tool with the same arguments seen more than `repeat` times →
   *   a nudge naming the tool and saying "identical".
   * - cycle: the same state seen more than `cycle` times → a nudge saying "cycling".
   * - stall: `progress` (higher is better) has not beaten its best for more than
   *   `stall` steps → a nudge saying "no measurable progress".
   */
  check(tool: string, args: unknown, state: unknown, progress?: number): string | null {
    throw new Error("not implemented");
  }
}
