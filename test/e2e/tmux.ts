import { execFileSync } from "node:child_process";
import { until } from "../support/until.js";

/** How many terminals this process has made: two made in the same millisecond still get servers of their own. */
let made = 0;

/** A private tmux server (its own socket) holding one real terminal for a test. */
export class Tmux {
  private readonly socket = `lab-e2e-${process.pid}-${Date.now()}-${++made}`;
  readonly session = "lab";

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }

  start(command: string, size = { columns: 120, rows: 45 }): void {
    this.tmux("new-session", "-d", "-s", this.session, "-x", String(size.columns), "-y", String(size.rows), command);
  }

  /** What the terminal shows now, as text. */
  screen(): string {
    return this.tmux("capture-pane", "-p", "-J", "-t", this.session);
  }

  /** Makes the terminal this size, as a user dragging the window's corner would. */
  resize(size: { columns: number; rows: number }): void {
    this.tmux("resize-window", "-t", this.session, "-x", String(size.columns), "-y", String(size.rows));
  }

  keys(...keys: string[]): void {
    this.tmux("send-keys", "-t", this.session, ...keys);
  }

  /** A tmux format value of the pane, e.g. "pane_pid" or "cursor_flag". */
  pane(format: string): string {
    return this.tmux("display-message", "-p", "-t", this.session, `#{${format}}`).trim();
  }

  /** Polls the screen until `check` holds; the terminal test may wait, in short steps. */
  async until(check: (screen: string) => boolean, what: string, timeoutMs = 20_000): Promise<string> {
    let last = "";
    try {
      await until(() => check((last = this.screen())), what, timeoutMs, 50);
    } catch {
      throw new Error(`The terminal never showed ${what}. It shows:\n${last}`);
    }
    return last;
  }

  kill(): void {
    try {
      this.tmux("kill-server");
    } catch {
      // already gone
    }
  }
}
