/**
 * Tier 3: context offloading with the Anthropic SDK.
 *
 * Three parts. `wrap` is called on every tool result, in the loop's tool step, before the
 * result goes into the conversation. `read` serves slices of a saved result back, and is
 * the security half: its path comes from the model. READ_ARTIFACT_TOOL tells the model
 * that `read` exists and when to reach for it.
 *
 * In the loop of exercise 1 the change is one line where results are built:
 *
 *   content: offloader.wrap(use.name, await dispatch(use.name, use.input))
 *
 * and one more tool, dispatched to `offloader.read(input.path, input.offset, input.limit)`.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, sep } from "node:path";

export const HEAD = 8;
export const TAIL = 4;
export const MAX_WINDOW = 500;
export const OUTSIDE_ROOT = "Error: path outside the artifact directory.";

export class Offloader {
  readonly root: string;
  readonly threshold: number;
  savedChars = 0;

  constructor(opts: { root?: string; threshold?: number } = {}) {
    this.root = opts.root ?? join(tmpdir(), "agent-artifacts");
    this.threshold = opts.threshold ?? 2000;
    mkdirSync(this.root, { recursive: true });
  }

  wrap(toolName: string, payload: unknown): string {
    // Indented JSON: one field per line, so the preview is a few fields, not the whole object.
    const text = typeof payload === "string" ? payload : JSON.stringify(payload, null, 2);
    // Small results go through as they are: only the big ones cost a file.
    if (text.length <= this.threshold) return text;

    const path = join(this.root, `${toolName}-${randomBytes(4).toString("hex")}.txt`);
    writeFileSync(path, text);
    this.savedChars += text.length;

    // Size, path, head and tail: most of the time the model can stop there.
    const lines = text.split("\n");
    // At HEAD + TAIL lines or fewer a tail would repeat the head or just meet it.
    const tail = lines.length > HEAD + TAIL ? [`--- last ${TAIL} lines ---`, ...lines.slice(-TAIL)] : [];
    return [
      `[offloaded] ${toolName} returned ${lines.length} lines / ${text.length} chars -> ${path}`,
      `--- first ${HEAD} lines ---`,
      ...lines.slice(0, HEAD),
      ...tail,
      `For lines not shown, call read_artifact(path='${path}', offset=<first line>, limit=<line count>).`,
    ].join("\n");
  }

  /**
   * True when `path` really lies inside the root. realpath on BOTH sides: on the path it
   * follows a symlink planted in the root to where the read would land; on the root it
   * keeps a root reached through a link (macOS /tmp) from refusing its own files. Then
   * compare components with relative(), never strings with startsWith(): the string
   * "/tmp/agent-artifacts-evil/x" starts with "/tmp/agent-artifacts".
   */
  private contains(path: string): boolean {
    let root: string;
    let target: string;
    try {
      root = realpathSync(this.root);
      target = realpathSync(path);
    } catch {
      return false;
    }
    const rel = relative(root, target);
    return rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  }

  /** Never throws: every failure is text the model can read and act on. */
  read(path: string, offset = 0, limit = 200): string {
    if (!this.contains(path)) {
      try {
        realpathSync(path);
      } catch {
        return `Error: no such artifact: ${path}`;
      }
      return OUTSIDE_ROOT;
    }
    let lines: string[];
    try {
      lines = readFileSync(path, "utf8").split("\n");
    } catch (err) {
      return `Error: cannot read ${path}: ${(err as Error).message}`;
    }
    const from = Math.max(0, Math.floor(offset));
    const window = lines.slice(from, from + Math.min(Math.max(0, Math.floor(limit)), MAX_WINDOW));
    return `[lines ${from}-${from + window.length} of ${lines.length}]\n${window.join("\n")}`;
  }
}

export const READ_ARTIFACT_TOOL: Anthropic.Tool = {
  name: "read_artifact",
  description:
    "Fetch lines from a tool result that was set aside in a file, when an [offloaded] pointer " +
    "shows too little of it. Keep the window narrow: a small offset/limit range.",
  input_schema: {
    type: "object",
    properties: {
      path: { type: "string", description: "The path given in the [offloaded] pointer." },
      offset: { type: "integer", description: "First line to return, 0-based." },
      limit: { type: "integer", description: "How many lines, at most 500." },
    },
    required: ["path"],
  },
};
