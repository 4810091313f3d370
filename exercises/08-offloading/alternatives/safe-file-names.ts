/**
 * Exercise 8, written from the lesson for the point it leaves open, taken the other way from the
 * solution: a tool name that is not a safe file name is made into one (every character other
 * than a letter, a digit, `_` or `-` becomes `_`), so "../../etc/x" writes `______etc_x-….txt`
 * inside the root. The pointer still names the tool as given. Containment compares real paths
 * segment by segment.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";

export const HEAD = 8;
export const TAIL = 4;
export const MAX_WINDOW = 500;
export const OUTSIDE_ROOT = "Error: path outside the artifact directory.";

const fileSafe = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, "_") || "tool";

export class Offloader {
  readonly root: string;
  readonly threshold: number;
  savedChars = 0;

  constructor(opts: { root?: string; threshold?: number } = {}) {
    this.root = opts.root ?? join(tmpdir(), "agent-artifacts");
    this.threshold = opts.threshold ?? 2000;
    if (!existsSync(this.root)) mkdirSync(this.root, { recursive: true });
  }

  wrap(toolName: string, payload: unknown): string {
    const text = typeof payload === "string" ? payload : JSON.stringify(payload, null, 2);
    if (text.length <= this.threshold) return text;
    const file = join(this.root, `${fileSafe(toolName)}-${randomBytes(4).toString("hex")}.txt`);
    writeFileSync(file, text, "utf8");
    this.savedChars += text.length;
    const lines = text.split("\n");
    const out = [`[offloaded] ${toolName} returned ${lines.length} lines / ${text.length} chars, saved at ${file}`, "head:", ...lines.slice(0, HEAD)];
    if (lines.length > HEAD + TAIL) out.push("tail:", ...lines.slice(lines.length - TAIL));
    out.push(`To see more, call read_artifact with path "${file}", an offset and a limit.`);
    return out.join("\n");
  }

  read(path: string, offset = 0, limit = 200): string {
    let real: string;
    let realRoot: string;
    try {
      realRoot = realpathSync(this.root);
      real = realpathSync(resolve(path));
    } catch (err) {
      return `Error: ${(err as Error).message}`;
    }
    const rootParts = realRoot.split(sep).filter(Boolean);
    const parts = real.split(sep).filter(Boolean);
    const inside = parts.length > rootParts.length && rootParts.every((part, i) => parts[i] === part);
    if (!inside) return OUTSIDE_ROOT;
    try {
      if (!statSync(real).isFile()) return `Error: ${path} is not a file`;
      const lines = readFileSync(real, "utf8").split("\n");
      const start = Math.max(0, Math.trunc(offset) || 0);
      const count = Math.min(MAX_WINDOW, Math.max(0, Math.trunc(limit) || 0));
      const window = lines.slice(start, start + count);
      return [`[lines ${start}-${start + window.length} of ${lines.length}]`, ...window].join("\n");
    } catch (err) {
      return `Error: ${(err as Error).message}`;
    }
  }
}

export const READ_ARTIFACT_TOOL: Anthropic.Tool = {
  name: "read_artifact",
  description: "Reads part of a saved tool output. Use it when a tool result says [offloaded]; ask for a narrow window with offset and limit.",
  input_schema: {
    type: "object",
    properties: {
      path: { type: "string", description: "The path from the [offloaded] pointer." },
      offset: { type: "integer", description: "The first line to return, 0-based." },
      limit: { type: "integer", description: "How many lines to return, at most 500." },
    },
    required: ["path"],
  },
};
