import { children, type AstNode, topLevel } from "./parse-ts.js";

const FUNCTION = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);
/** Statements that only group others, or declare types: the lines they hold are counted through their contents. */
const NOT_COUNTED = new Set([
  "BlockStatement",
  "EmptyStatement",
  "TSInterfaceDeclaration",
  "TSTypeAliasDeclaration",
  "TSModuleDeclaration",
  "TSEnumDeclaration",
]);

const isStatement = (node: AstNode) => (/Statement$/.test(node.type) || /Declaration$/.test(node.type)) && !NOT_COUNTED.has(node.type);

/** Every child node of `node`, whatever field holds it. */
function childNodes(node: AstNode): AstNode[] {
  const out: AstNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "type" || typeof value !== "object" || value === null) continue;
    if (Array.isArray(value)) out.push(...(value as unknown[]).filter((v): v is AstNode => typeof (v as AstNode)?.type === "string"));
    else if (typeof (value as AstNode).type === "string") out.push(value as AstNode);
  }
  return out;
}

/** Offsets where each line starts, to turn a node's offset into its line. */
function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === "\n") starts.push(i + 1);
  return starts;
}

function lineAt(starts: number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * The lines a drill is measured by: each line on which a statement inside a function starts
 * (a top-level arrow's expression body counts as one). What the drill file hands you —
 * imports, types, signatures — and what only holds code — braces, blank lines, comments —
 * does not count, and a statement over several lines counts once. A file that does not parse
 * is measured as far as it does.
 */
export function drillLines(source: string): number {
  const starts = lineStarts(source);
  const counted = new Set<number>();
  const visit = (node: AstNode, inFunction: boolean): void => {
    if (inFunction && isStatement(node)) counted.add(lineAt(starts, node.start));
    if (FUNCTION.has(node.type)) {
      const body = node["body"] as AstNode | null | undefined;
      if (body && body.type !== "BlockStatement" && !inFunction) counted.add(lineAt(starts, body.start));
      for (const statement of body?.type === "BlockStatement" ? children(body, "body") : body ? [body] : []) visit(statement, true);
      return;
    }
    for (const child of childNodes(node)) visit(child, inFunction);
  };
  for (const node of topLevel(source).body) visit(node, false);
  return counted.size;
}
