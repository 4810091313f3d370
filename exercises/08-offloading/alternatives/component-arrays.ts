// Written blind from the lesson by a helper who never read the hidden tests.
/**
 * Offloading, variant: the artifact name comes from a UUID's first 8 hex digits and
 * the file is created with the exclusive "wx" flag (a new file, never an overwrite);
 * the pointer is one template string; containment compares the realpath'd root and
 * target as arrays of path components; a path that cannot be resolved is still
 * classified (outside the root: the containment error; inside: a missing-file error).
 */
import type Anthropic from "@anthropic-ai/sdk";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const HEAD = 8;
export const TAIL = 4;
export const MAX_WINDOW = 500;
export const OUTSIDE_ROOT = "Error: path outside the artifact directory.";

function components(p: string): string[] {
  return p.split(path.sep).filter((part) => part.length > 0);
}

function within(root: string, target: string): boolean {
  const r = components(root);
  const t = components(target);
  return r.length <= t.length && r.every((part, i) => part === t[i]);
}

export class Offloader {
  readonly root: string;
  readonly threshold: number;
  savedChars = 0;

  constructor({ root = path.join(os.tmpdir(), "agent-artifacts"), threshold = 2000 }: { root?: string; threshold?: number } = {}) {
    this.root = root;
    this.threshold = threshold;
    if (!fs.existsSync(root)) fs.mkdirSync(root, { recursive: true });
  }

  private newFile(toolName: string, text: string): string {
    for (;;) {
      const file = path.join(this.root, `${toolName}-${randomUUID().slice(0, 8)}.txt`);
      try {
        fs.writeFileSync(file, text, { encoding: "utf8", flag: "wx" });
        return file;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
    }
  }

  wrap(toolName: string, payload: unknown): string {
    let text: string;
    if (typeof payload === "string") text = payload;
    else text = JSON.stringify(payload, null, 2) ?? String(payload);
    if (!(text.length > this.threshold)) return text;

    const file = this.newFile(toolName, text);
    this.savedChars += text.length;
    const lines = text.split("\n");
    const head = lines.slice(0, HEAD).join("\n");
    const tail = lines.length > HEAD + TAIL ? `\n[...]\nlast ${TAIL} lines:\n${lines.slice(lines.length - TAIL).join("\n")}` : "";
    return (
      `[offloaded] tool ${toolName}: ${lines.length} lines, ${text.length} chars, written to ${file}\n` +
      `first ${HEAD} lines:\n${head}${tail}\n` +
      `Call read_artifact with path ${file} and an offset and a limit to read a window of it.`
    );
  }

  read(target: string, offset = 0, limit = 200): string {
    let realRoot: string;
    try {
      realRoot = fs.realpathSync(this.root);
    } catch (err) {
      return `Error: artifact directory unavailable (${String(err)})`;
    }
    let realTarget: string;
    try {
      realTarget = fs.realpathSync(target);
    } catch (err) {
      // Nothing to follow on disk: classify the textual path so an escape still reads as one.
      try {
        const guess = path.resolve(target);
        const rootGuess = path.resolve(this.root);
        if (!within(realRoot, guess) && !within(rootGuess, guess)) return OUTSIDE_ROOT;
      } catch {
        // not even a usable path string
      }
      return `Error: no such artifact ${String(target)} (${(err as Error).message})`;
    }
    if (!within(realRoot, realTarget)) return OUTSIDE_ROOT;

    let content: string;
    try {
      content = fs.readFileSync(realTarget, { encoding: "utf8" });
    } catch (err) {
      return `Error: ${String((err as Error).message)}`;
    }
    const all = content.split("\n");
    const from = offset < 0 ? 0 : offset;
    const count = limit > MAX_WINDOW ? MAX_WINDOW : limit;
    const shown = all.slice(from, from + count);
    return [`[lines ${from}-${from + shown.length} of ${all.length}]`, ...shown].join("\n");
  }
}

export const READ_ARTIFACT_TOOL: Anthropic.Tool = {
  name: "read_artifact",
  description:
    "When a tool result says [offloaded], the full output is in a file: call this with its path " +
    "to read part of it. Prefer a narrow window: ask for only the lines you need.",
  input_schema: {
    type: "object",
    properties: {
      path: { type: "string" },
      offset: { type: "integer", minimum: 0, description: "index of the first line, from 0" },
      limit: { type: "integer", minimum: 1, maximum: 500, description: "number of lines, at most 500" },
    },
    required: ["path"],
  },
};
