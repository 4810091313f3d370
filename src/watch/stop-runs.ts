import type { RunEvent } from "../../checker/run/result.js";
import type { RunnerLike } from "./watch-session.js";

/**
 * Cuts the run in flight short when lab is quitting, so it never waits on learner code
 * that does not end. The workers are killed only once the run's tests are collected:
 * killed earlier, the runner's vitest can no longer close (see the issue 4 report). Until
 * then, the run's own time limit bounds the wait.
 */
export class RunStopper {
  private collected = false;
  private stopping = false;

  constructor(private readonly runner: RunnerLike) {}

  /** Every event of every run goes through here. */
  readonly observe = (event: RunEvent): void => {
    if (event.type === "run-started") this.collected = false;
    if (event.type !== "tests-collected") return;
    this.collected = true;
    if (this.stopping) this.runner.abort?.();
  };

  stop(): void {
    this.stopping = true;
    if (this.collected) this.runner.abort?.();
  }
}
