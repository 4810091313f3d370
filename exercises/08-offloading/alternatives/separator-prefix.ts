// Written blind from the lesson by a helper who never read the hidden tests.
/**
 * Offloading, variant: fs.realpathSync.native on both sides and a prefix test that
 * includes the trailing separator (component-safe: ".../agent-artifacts-evil" does not
 * start with ".../agent-artifacts/"); head and tail lines are picked by index in one
 * loop; the window is collected line by line.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { randomInt } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";

export const HEAD = 8;
export const TAIL = 4;
export const MAX_WINDOW = 500;
export const OUTSIDE_ROOT = "Error: path outside the artifact directory.";

function hex8(): string {
  return randomInt(0, 0x10000).toString(16).padStart(4, "0") + randomInt(0, 0x10000).toString(16).padStart(4, "0");
}

export class Offloader {
  readonly root: string;
  readonly threshold: number;
  savedChars = 0;

  constructor(opts: { root?: string; threshold?: number } = {}) {
    const root = opts.root === undefined ? join(tmpdir(), "agent-artifacts") : opts.root;
    this.root = root;
    this.threshold = opts.threshold === undefined ? 2000 : opts.threshold;
    mkdirSync(root, { recursive: true });
  }

  wrap(toolName: string, payload: unknown): string {
    const text = typeof payload === "string" ? payload : String(JSON.stringify(payload, null, 2));
    if (text.length <= this.threshold) return text;

    const file = join(this.root, toolName + "-" + hex8() + ".txt");
    writeFileSync(file, text);
    this.savedChars += text.length;

    const lines = text.split("\n");
    const n = lines.length;
    const showTail = n > HEAD + TAIL;
    const parts: string[] = [`[offloaded] ${toolName}: ${n} lines / ${text.length} chars in ${file}`, "head:"];
    for (let i = 0; i < n; i++) {
      if (i === HEAD && showTail) parts.push("tail:");
      if (i < HEAD || (showTail && i >= n - TAIL)) parts.push(lines[i]);
    }
    parts.push(`Use read_artifact with path="${file}" plus offset and limit to fetch a window of lines.`);
    return parts.join("\n");
  }

  read(path: string, offset = 0, limit = 200): string {
    try {
      const realRoot = realpathSync.native(this.root);
      let realPath: string;
      try {
        realPath = realpathSync.native(path);
      } catch {
        return `Error: no readable artifact at ${path}`;
      }
      const rootWithSep = realRoot.endsWith(sep) ? realRoot : realRoot + sep;
      if (realPath !== realRoot && !realPath.startsWith(rootWithSep)) return OUTSIDE_ROOT;
      if (!statSync(realPath).isFile()) return `Error: ${path} is not a file`;

      const lines = readFileSync(realPath, "utf8").split("\n");
      const first = Math.max(offset, 0);
      const last = Math.min(lines.length, first + Math.min(limit, MAX_WINDOW));
      const window: string[] = [];
      for (let i = first; i < last; i++) window.push(lines[i]);
      return `[lines ${first}-${first + window.length} of ${lines.length}]\n` + window.join("\n");
    } catch (err) {
      return "Error: " + (err instanceof Error ? err.message : String(err));
    }
  }
}

export const READ_ARTIFACT_TOOL: Anthropic.Tool = {
  name: "read_artifact",
  description:
    "Reads lines from an offloaded tool result. Use this when a result begins with [offloaded]; " +
    "give the path it names. Prefer a narrow window (small limit) to keep the context small.",
  input_schema: {
    type: "object",
    properties: {
      path: { type: "string", description: "the path the [offloaded] pointer names" },
      offset: { type: "integer", description: "first line to return (0-based)" },
      limit: { type: "integer", description: "lines to return, at most 500" },
    },
    required: ["path"],
  },
};
