import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseSync } from "rolldown/utils";
import { describe, expect, test } from "vitest";
import { blankComments, countCodeLines } from "../../../src/drill/code-lines.js";
import { drillLines } from "../../../src/drill/drill-lines.js";

const root = resolve(import.meta.dirname, "../../..");
const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");

describe("countCodeLines: non-blank, non-comment lines", () => {
  test("JSDoc, block and trailing comments, and strings, templates and regexes that hold // or /*", () => {
    // import, url, notAComment, the template's 4 lines, pattern, `after`, half's 3 lines, read
    expect(countCodeLines(fixture("comments.ts"))).toBe(13);
  });

  test("blank lines, lines of spaces and tabs, and a closing comment", () => {
    expect(countCodeLines(fixture("blank-lines.ts"))).toBe(3);
  });

  test.each([
    ["a division after a closing paren", "const a = (b + c) / 2; // half\nconst d = a / 2 / 3;", 2],
    ["a regex after return", "function f(s: string) {\n  return /\\/\\*x/.test(s); // x\n}", 3],
    ["a quote escaped inside a string", 'const s = "a\\"// b";\n// gone', 1],
    ["braces inside a template expression", "const t = `${ { a: 1 }.a } // kept`;\n// gone", 1],
    ["a template inside a template", "const t = `a ${`b ${1} // c`} d`;\n/* gone */", 1],
    ["an unterminated block comment", "const a = 1;\n/* never closed\nconst b = 2;", 1],
    ["a comment-only file", "// one\n/* two */\n/** three\n */", 0],
    ["an empty file", "", 0],
  ])("%s", (_what, source, lines) => {
    expect(countCodeLines(source)).toBe(lines);
  });

  test("blanking comments keeps every offset and line where it was", () => {
    const source = fixture("comments.ts");
    const blanked = blankComments(source);
    expect(blanked).toHaveLength(source.length);
    expect(blanked.split("\n")).toHaveLength(source.split("\n").length);
  });

  test("agrees with a real parser's comments on every TypeScript file of the lab's exercises and solutions", () => {
    const files = [
      ...readdirSync(join(root, "solutions")).map((f) => join(root, "solutions", f)),
      ...readdirSync(join(root, "exercises"), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".ts"))
        .map((f) => join(root, "exercises", f)),
      join(import.meta.dirname, "fixtures/comments.ts"),
    ];
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const source = readFileSync(file, "utf8");
      const chars = source.split("");
      for (const c of parseSync(file, source).comments) for (let i = c.start; i < c.end; i++) if (chars[i] !== "\n") chars[i] = " ";
      const expected = chars
        .join("")
        .split("\n")
        .filter((l) => l.trim() !== "").length;
      expect(countCodeLines(source), file).toBe(expected);
    }
  });
});

describe("drillLines: the statements a drill is measured by", () => {
  test("imports, types, top-level constants, signatures, braces and comments do not count; each line where a statement starts does", () => {
    const source = [
      'import Anthropic from "@anthropic-ai/sdk";',
      'import type { Tool } from "@anthropic-ai/sdk/resources";',
      "",
      "export type Dispatch = (name: string) => string;",
      "interface Options {",
      "  maxSteps?: number; // cap",
      "}",
      "const LIMIT = 3;",
      "",
      "/** The loop. */",
      "export async function agent(",
      "  client: Anthropic,",
      "  tools: Tool[],",
      "): Promise<string> {",
      "  const sent = await client.messages.create({ // 1",
      "    model: 'm',",
      "    tools,",
      "  });",
      "  for (let i = 0; i < LIMIT; i++) { // 2",
      "    if (i === 2) return String(sent); // 3 (the if and its return share a line)",
      "  }",
      "  return tools.map((t) => {",
      "    return t.name; // 5: a statement in a function inside the function",
      "  }).join(); // 4 starts on the line above",
      "}",
      "export const twice = (n: number) => n * 2; // 6: a top-level arrow's expression body",
    ].join("\n");
    expect(drillLines(source)).toBe(6);
  });

  test("the reference solution of exercise 1: 20 lines where statements start, from 55 lines of code", () => {
    const solution = readFileSync(join(root, "solutions/01-tool-loop.ts"), "utf8");
    expect(countCodeLines(solution)).toBe(55);
    expect(drillLines(solution)).toBe(20);
  });

  test("a file that does not parse is measured as far as it parses, and never throws", () => {
    expect(() => drillLines('import x from "y";\n// note\nexport function f( {\n  return 1\n')).not.toThrow();
    expect(drillLines("export function f() {\n  const a = 1;\n  return a +\n")).toBeLessThanOrEqual(2);
  });
});
