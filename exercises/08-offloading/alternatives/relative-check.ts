// Written blind from the lesson by a helper who never read the hidden tests.
/**
 * Offloading, variant: the pointer is assembled from an array of lines; containment
 * resolves both sides with fs.realpathSync and judges path.relative(realRoot, realPath);
 * the window is a slice of the file's lines.
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
    const text = typeof payload === "string" ? payload : (JSON.stringify(payload, null, 2) ?? String(payload));
    if (text.length <= this.threshold) return text;

    const path = join(this.root, `${toolName}-${randomBytes(4).toString("hex")}.txt`);
    writeFileSync(path, text, "utf8");
    this.savedChars += text.length;

    const lines = text.split("\n");
    const out = [
      `[offloaded] ${toolName} returned ${lines.length} lines, ${text.length} chars, saved to ${path}`,
      `--- first ${Math.min(HEAD, lines.length)} lines ---`,
      ...lines.slice(0, HEAD),
    ];
    if (lines.length > HEAD + TAIL) {
      out.push(`--- last ${TAIL} lines ---`, ...lines.slice(-TAIL));
    }
    out.push(`--- to see more, call read_artifact with path "${path}", an offset and a limit ---`);
    return out.join("\n");
  }

  read(path: string, offset = 0, limit = 200): string {
    let realRoot: string;
    let realPath: string;
    try {
      realRoot = realpathSync(this.root);
      realPath = realpathSync(path);
    } catch (err) {
      return `Error: cannot open ${path}: ${(err as Error).message}`;
    }
    const rel = relative(realRoot, realPath);
    if (rel === ".." || rel.startsWith(".." + sep) || isAbsolute(rel)) return OUTSIDE_ROOT;

    try {
      const lines = readFileSync(realPath, "utf8").split("\n");
      const start = Math.max(0, offset);
      const window = lines.slice(start, start + Math.min(limit, MAX_WINDOW));
      return `[lines ${start}-${start + window.length} of ${lines.length}]\n${window.join("\n")}`;
    } catch (err) {
      return `Error: cannot read ${path}: ${(err as Error).message}`;
    }
  }
}

export const READ_ARTIFACT_TOOL: Anthropic.Tool = {
  name: "read_artifact",
  description:
    "Reads part of a tool result that was offloaded to a file. Use it when a tool result " +
    "starts with [offloaded]: pass the path from that pointer. Prefer a narrow window " +
    "(a small limit around the lines you need) over reading the whole file.",
  input_schema: {
    type: "object",
    properties: {
      path: { type: "string", description: "The artifact path given in the [offloaded] pointer." },
      offset: { type: "integer", description: "First line to return, 0-based. Default 0." },
      limit: { type: "integer", description: "How many lines to return, at most 500. Default 200." },
    },
    required: ["path"],
  },
};
