/**
 * Worker processes kept between runs for the owner of the code they ran (see
 * SpareProcesses.serve): a learner's next exercise skips Node's, the SDK's and vitest's
 * start-up, while no process ever runs two owners' code.
 */
import type { ChildProcess } from "node:child_process";
import { hasExited, killAndWait } from "../stopping/kill-group.js";

interface Kept {
  spec: string;
  owner: string;
  child: ChildProcess;
  onExit: () => void;
}

export class KeptProcesses {
  private readonly kept: Kept[] = [];

  add(spec: string, owner: string, child: ChildProcess): void {
    const entry: Kept = { spec, owner, child, onExit: () => this.drop(entry) };
    this.kept.push(entry);
    // A kept process that ends on its own (learner code left running after its file) is dropped.
    child.once("exit", entry.onExit);
  }

  /** A live process kept for `owner` with spawn spec `spec`, no longer kept. */
  take(spec: string, owner: string): ChildProcess | undefined {
    const at = this.kept.findIndex((k) => k.spec === spec && k.owner === owner && !hasExited(k.child));
    if (at < 0) return undefined;
    const [entry] = this.kept.splice(at, 1);
    entry!.child.off("exit", entry!.onExit);
    return entry!.child;
  }

  /** Kills every kept process; resolves once all of them have exited. */
  async killAll(): Promise<void> {
    await Promise.all(this.kept.splice(0).map(({ child }) => killAndWait(child)));
  }

  private drop(entry: Kept): void {
    const at = this.kept.indexOf(entry);
    if (at >= 0) this.kept.splice(at, 1);
  }
}
