/**
 * A learner's file reduced to what it does: parsed, with comments, layout, quote style and the
 * names it chose for its own variables, parameters and functions taken away, then hashed. Two
 * files with the same fingerprint are the same program written out differently.
 */
import { createHash } from "node:crypto";
import { parseSync } from "rolldown/utils";

/** Where the source's own words end up in the tree but carry no meaning: positions, raw spellings. */
const DROPPED = new Set(["start", "end", "range", "loc", "raw", "shorthand", "comments", "hashbang"]);

/** Names that belong to someone else (an API's properties, object keys, exports): kept as written. */
const KEPT_NAMES: Record<string, string[]> = {
  MemberExpression: ["property"],
  Property: ["key"],
  PropertyDefinition: ["key"],
  MethodDefinition: ["key"],
  TSPropertySignature: ["key"],
  TSMethodSignature: ["key"],
  TSQualifiedName: ["right"],
  ImportSpecifier: ["imported"],
  ExportSpecifier: ["exported"],
};

type Tree = Record<string, unknown>;

/** The tree with every other identifier renamed in order of first appearance ($0, $1, ...). */
function canonical(value: unknown, names: Map<string, string>, keepName: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => canonical(item, names, false));
  if (value === null || typeof value !== "object") return value;
  const node = value as Tree;
  const kept = node["computed"] === true ? [] : (KEPT_NAMES[node["type"] as string] ?? []);
  const out: Tree = {};
  for (const [key, child] of Object.entries(node)) {
    if (DROPPED.has(key)) continue;
    if (key === "name" && node["type"] === "Identifier" && !keepName && typeof child === "string") {
      if (!names.has(child)) names.set(child, `$${names.size}`);
      out[key] = names.get(child);
    } else out[key] = canonical(child, names, kept.includes(key));
  }
  return out;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The fingerprint of a TypeScript source, or null for a file with nothing in it but comments. */
export function fingerprint(source: string): string | null {
  const { program, errors } = parseSync("learner.ts", source, { lang: "ts" });
  // A file that does not parse can still be copied: compare its text without layout.
  if (errors.length > 0) return `text:${sha256(source.replace(/\s+/g, ""))}`;
  if ((program.body as unknown[]).length === 0) return null;
  return sha256(JSON.stringify(canonical(program, new Map(), false)));
}
