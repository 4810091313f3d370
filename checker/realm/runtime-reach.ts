/**
 * What a learner's module reaches for at run time, kept as it was in the file. The realm loads
 * the bundle from a data: URL, where `import.meta.url` and a computed `import(…)` would mean
 * something else; so each module's `import.meta.url` / `.filename` / `.dirname` become its own
 * file's, and a computed `import(x)` becomes a call to the realm's importer (entry.ts), which
 * resolves `x` from the file and judges it by the import wall, as the bundler judged the fixed
 * ones. An import of a fixed string is left to the bundler.
 */
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";

/** The global the realm's importer hangs on (set by entry.ts before the learner's module loads). */
export const REALM_IMPORT = "__labRealmImport";

type Node = { type: string; start: number; end: number; [key: string]: unknown };
export type Edit = { start: number; end: number; text: string };

function walk(node: unknown, visit: (node: Node) => boolean): void {
  if (Array.isArray(node)) return node.forEach((child) => walk(child, visit));
  if (node === null || typeof node !== "object") return;
  const n = node as Node;
  if (typeof n.type === "string" && visit(n)) return;
  for (const key of Object.keys(n)) if (key !== "type" && key !== "start" && key !== "end") walk(n[key], visit);
}

const META = { url: (file: string) => pathToFileURL(file).href, filename: (file: string) => file, dirname: (file: string) => dirname(file) } as const;

/** The edits that keep `code`'s (the file `file`'s) run-time reach; `parse` is the bundler's own parser. */
export function runtimeReachEdits(code: string, file: string, parse: (code: string) => unknown): Edit[] {
  if (!code.includes("import")) return [];
  let ast: unknown;
  try {
    ast = parse(code);
  } catch {
    return []; // the bundler's own parse reports it, with its place
  }
  const edits: Edit[] = [];
  walk(ast, (node) => {
    if (node.type === "MemberExpression" && (node.object as Node).type === "MetaProperty") {
      const name = (node.property as { name?: string }).name as keyof typeof META;
      if (!node.computed && name in META) edits.push({ start: node.start, end: node.end, text: JSON.stringify(META[name](file)) });
      return true;
    }
    if (node.type === "ImportExpression" && (node.source as Node).type !== "Literal") {
      const source = node.source as Node;
      edits.push({ start: node.start, end: source.start, text: `globalThis.${REALM_IMPORT}(` });
      edits.push({ start: source.end, end: node.end, text: `, ${JSON.stringify(pathToFileURL(file).href)})` });
    }
    return false;
  });
  return edits;
}
