/**
 * Exercise 8: context offloading. Replace each `throw` with your code; keep the exported
 * names and signatures as they are (the hidden tests import them).
 */
import type Anthropic from "@anthropic-ai/sdk";

/** Lines of preview from the top and from the bottom of an offloaded result. */
export const HEAD = 8;
export const TAIL = 4;
/** The most lines one read may return. */
export const MAX_WINDOW = 500;
export const OUTSIDE_ROOT = "Error: path outside the artifact directory.";

export class Offloader {
  /** Where artifacts are written. */
  readonly root: string;
  /** Results longer than this many characters are offloaded. */
  readonly threshold: number;
  /** Characters written to artifacts instead of the conversation. */
  savedChars = 0;

  /** Defaults: root join(tmpdir(), "agent-artifacts"), threshold 2000. Creates the root. */
  constructor(opts: { root?: string; threshold?: number } = {}) {
    throw new Error("not implemented");
  }

  /**
   * Small results (threshold characters or fewer) come back unchanged. Bigger ones are
   * written to root/<toolName>-<8 hex>.txt and replaced by a pointer that gives their size and
   * path, shows HEAD lines from the top and (past HEAD + TAIL lines) TAIL from the bottom.
   */
  wrap(toolName: string, payload: unknown): string {
    throw new Error("not implemented");
  }

  /**
   * "[lines a-b of N]\n" and the window, for a file inside the root; OUTSIDE_ROOT for
   * anything that resolves outside it; another "Error: …" text for any other failure.
   */
  read(path: string, offset = 0, limit = 200): string {
    throw new Error("not implemented");
  }
}

/** The tool (an Anthropic.Tool) that lets the model read a slice of an artifact back. Fill in its description and schema. */
export const READ_ARTIFACT_TOOL = {
  name: "read_artifact",
  description: "",
  input_schema: { type: "object", properties: {} },
} satisfies Anthropic.Tool;
