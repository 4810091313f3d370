/**
 * The module loader's wall around learner code. vite resolves and reads every module a
 * test run loads, in the lab's own process, outside any sandbox the workers have; so what a
 * learner file may import is decided here, before anything is read: files in its own folder
 * (as they really are, links followed), the SDK, Node's built-in modules and `lab:test`.
 * Anything else is refused with a sentence that names the import.
 */
import { realpathSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const WALL_REASONS = {
  query: "a query suffix (?raw, ?url, ?inline…) reads a file as data",
  outside: "it is outside your file's folder",
  package: "your file may import only @anthropic-ai/sdk, Node's built-in modules and files beside it",
  test: "hidden tests are not for your file to load",
  notAFile: "it is not a file on disk",
  missing: "there is no such file beside your file",
  glob: "import.meta.glob reads folders, which your file may not",
  computed: "its name is computed as your code runs, and only files imported by a fixed path go with yours",
} as const;

export type WallReason = keyof typeof WALL_REASONS;

/** Where a refusal starts in whatever error carried it. */
export const REFUSAL_MARK = "lab refused to load ";

/** The sentence a refused import ends a run with. */
export const refusedImport = (spec: string, reason: WallReason) =>
  `${REFUSAL_MARK}${JSON.stringify(spec.length > 160 ? `${spec.slice(0, 160)}…` : spec)}: ${WALL_REASONS[reason]}.`;

export class ImportRefused extends Error {
  override name = "ImportRefused";
  constructor(spec: string, reason: WallReason) {
    super(refusedImport(spec, reason));
  }
}

const BUILTINS = new Set(builtinModules);

/** The SDK and its subpaths: the one package learner code may import. */
export const SDK_SPECIFIER = /^@anthropic-ai\/sdk(\/.*)?$/;

export function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Whether `path` is `root` or inside it (both absolute and real). */
export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

export type Verdict = { kind: "builtin" } | { kind: "path"; lexical: string } | { kind: "refuse"; reason: WallReason } | { kind: "pass" };

/**
 * What to do with `spec` imported by the learner file `importer` whose folder is `root`,
 * before anything is resolved: "pass" leaves it to the lab's own resolution (the SDK, lab:test).
 */
export function judgeSpecifier(spec: string, importer: string, root: string, passes: (spec: string) => boolean): Verdict {
  if (/[?#]/.test(spec)) return { kind: "refuse", reason: "query" };
  if (passes(spec)) return { kind: "pass" };
  const bare = spec.startsWith("node:") ? spec.slice(5) : spec;
  // vite hands built-ins to Node without asking; the workers' permission model bounds them.
  if (BUILTINS.has(bare)) return { kind: "builtin" };
  let lexical: string;
  if (spec.startsWith("file:")) {
    try {
      lexical = fileURLToPath(spec);
    } catch {
      return { kind: "refuse", reason: "notAFile" };
    }
  } else if (spec.startsWith(".")) lexical = resolve(dirname(importer), spec);
  else if (spec.startsWith("/")) lexical = resolve(spec);
  else return { kind: "refuse", reason: "package" };
  return isInside(lexical, root) ? { kind: "path", lexical } : { kind: "refuse", reason: "outside" };
}

/** Whether a resolved module id may be loaded by learner code from `root`; null when it may. */
export function judgeResolved(id: string, root: string, isTestFile: (path: string) => boolean): WallReason | null {
  if (id.includes("\0") || /[?#]/.test(id)) return "query";
  if (!isAbsolute(id)) return "notAFile";
  const real = realOrSame(id);
  if (!isInside(real, root)) return "outside";
  if (isTestFile(real)) return "test";
  return null;
}
