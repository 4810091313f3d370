import { parseSync } from "rolldown/utils";

/** The little of an ESTree node the drill reads; offsets are UTF-16, like String#slice. */
export interface AstNode {
  type: string;
  start: number;
  end: number;
  [field: string]: unknown;
}

/** Top-level statements of a TypeScript file, as far as it parses; `ok` is false when it had errors. */
export function topLevel(source: string): { body: AstNode[]; ok: boolean } {
  const { program, errors } = parseSync("drill.ts", source, { lang: "ts" });
  return { body: program.body as unknown as AstNode[], ok: errors.length === 0 };
}

/** A child node, when the field holds one. */
export const child = (node: AstNode | null | undefined, field: string): AstNode | null => {
  const value = node?.[field];
  return typeof value === "object" && value !== null && typeof (value as AstNode).type === "string" ? (value as AstNode) : null;
};

/** A list of child nodes. */
export const children = (node: AstNode | null | undefined, field: string): AstNode[] => {
  const value = node?.[field];
  return Array.isArray(value) ? (value as AstNode[]) : [];
};

const TYPE_DECLARATIONS = new Set(["TSInterfaceDeclaration", "TSTypeAliasDeclaration"]);

/** An import, an interface or a type alias, exported or not: declarations that hold no code to write. */
export function isImportOrType(node: AstNode): boolean {
  if (node.type === "ImportDeclaration" || TYPE_DECLARATIONS.has(node.type)) return true;
  if (node.type !== "ExportNamedDeclaration") return false;
  const declaration = child(node, "declaration");
  return declaration ? TYPE_DECLARATIONS.has(declaration.type) : node["exportKind"] === "type";
}
