/**
 * A drill file from an exercise's stub: its imports, type declarations and exported
 * signatures, every body replaced by a `throw`, every comment gone (the stub's comments
 * teach: defaults, rules, the order of checks). What is left is what an interviewer gives you.
 */
import { blankComments } from "./code-lines.js";
import { child, children, topLevel, type AstNode } from "./parse-ts.js";

export const NOT_IMPLEMENTED = 'throw new Error("not implemented");';

export class DrillSourceError extends Error {
  override name = "DrillSourceError";
}

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);
const KEPT_AS_WRITTEN = new Set(["ImportDeclaration", "TSInterfaceDeclaration", "TSTypeAliasDeclaration", "TSEnumDeclaration", "TSModuleDeclaration"]);

/** Source text with comments blanked, tidied: trailing spaces and lines left empty are dropped. */
function tidy(text: string): string {
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "")
    .join("\n");
}

/** A body that throws, its closing brace at `indent`. */
const throwingBody = (indent: string) => `{\n${indent}  ${NOT_IMPLEMENTED}\n${indent}}`;

/** The whitespace that starts the line `offset` is on. */
function indentAt(code: string, offset: number): string {
  const lineStart = code.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(code.slice(lineStart))![0];
}

export function drillSource(stub: string, header: string): string {
  const { body, ok } = topLevel(stub);
  if (!ok) throw new DrillSourceError("The stub does not parse.");
  const code = blankComments(stub);
  const text = (from: number, to: number) => tidy(code.slice(from, to));

  /** A function's head as written, then a throwing body. */
  const stubbed = (node: AstNode, fn: AstNode, from = node.start): string => {
    const body = child(fn, "body");
    if (!body) return text(from, node.end);
    return `${text(from, body.start).trimEnd()} ${throwingBody(indentAt(code, node.start))}`;
  };

  const member = (node: AstNode): string => {
    const indent = indentAt(code, node.start);
    const value = child(node, "value");
    if (node.type === "MethodDefinition" && value) return indent + stubbed(node, value);
    if (node.type === "PropertyDefinition" && value && FUNCTIONS.has(value.type)) return `${indent}${stubbed(node, value).replace(/;?$/, ";")}`;
    if (node.type === "StaticBlock") return "";
    return indent + text(node.start, node.end);
  };

  const declarator = (node: AstNode): string => {
    const init = child(node, "init");
    if (!init) return text(node.start, node.end);
    if (FUNCTIONS.has(init.type)) return stubbed(node, init);
    // Given data (a price table, a list) is part of the answer: the drill keeps its type, not its entries.
    if (init.type === "ObjectExpression") return `${text(node.start, init.start)} {}`;
    if (init.type === "ArrayExpression") return `${text(node.start, init.start)} []`;
    return text(node.start, node.end);
  };

  /** A declaration without its `export`, or null when it is code the drill leaves out. */
  const declaration = (node: AstNode, exported: boolean): string | null => {
    if (KEPT_AS_WRITTEN.has(node.type)) return text(node.start, node.end);
    if (!exported) return null; // a private helper is part of the answer, not the question
    if (node.type === "FunctionDeclaration") return stubbed(node, node);
    if (node.type === "ClassDeclaration") {
      const classBody = child(node, "body")!;
      const nodes = children(classBody, "body");
      // Fields stay together; each method gets a blank line before it, as in the stub.
      const members = nodes.map((m, i) => (i > 0 && m.type === "MethodDefinition" ? `\n${member(m)}` : member(m))).filter((m) => m.trim() !== "");
      const head = text(node.start, classBody.start).trimEnd();
      return members.length === 0 ? `${head} {}` : `${head} {\n${members.join("\n")}\n}`;
    }
    if (node.type === "VariableDeclaration") return `${node["kind"] as string} ${children(node, "declarations").map(declarator).join(", ")};`;
    return text(node.start, node.end);
  };

  const imports: string[] = [];
  const rest: string[] = [];
  for (const node of body) {
    if (node.type === "ImportDeclaration") {
      imports.push(text(node.start, node.end));
      continue;
    }
    const inner = child(node, "declaration");
    let piece: string | null;
    if (node.type === "ExportNamedDeclaration" && inner) piece = prefixed("export ", declaration(inner, true));
    else if (node.type === "ExportDefaultDeclaration" && inner && inner.type !== "Identifier") piece = prefixed("export default ", declaration(inner, true));
    else if (node.type.startsWith("Export") || node.type.startsWith("TSExport")) piece = text(node.start, node.end);
    else piece = declaration(node, false);
    if (piece !== null) rest.push(piece);
  }
  const blocks = [header, imports.join("\n"), ...rest].filter((block) => block !== "");
  return `${blocks.join("\n\n")}\n`;
}

const prefixed = (prefix: string, piece: string | null) => (piece === null ? null : prefix + piece);
