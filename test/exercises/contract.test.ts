/**
 * The contract lives in the repository: each exercise's lesson names, in its "Your task"
 * section, every export its hidden tests use, the stub exports each of them, and the lesson
 * says what the tests check. And no file of the repository points at a folder outside it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import { loadExercises } from "../../checker/model/exercises.js";
import { labPaths } from "../../checker/paths.js";

const paths = labPaths();
const exercises = loadExercises(paths.exercises, paths.solutions);

/** The names a hidden test imports from "lab:impl": what it judges the learner's file by. */
function judgedNames(hiddenTest: string): string[] {
  const file = ts.createSourceFile(hiddenTest, readFileSync(hiddenTest, "utf8"), ts.ScriptTarget.ES2022, true);
  return file.statements.flatMap((s) => {
    if (!ts.isImportDeclaration(s) || (s.moduleSpecifier as ts.StringLiteral).text !== "lab:impl") return [];
    const bindings = s.importClause?.namedBindings;
    return bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => (e.propertyName ?? e.name).text) : [];
  });
}

/** A markdown section's text, from its "## " heading to the next one. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}`);
  if (start < 0) return "";
  const end = markdown.indexOf("\n## ", start + 4);
  return markdown.slice(start, end < 0 ? undefined : end);
}

describe("each exercise's contract is in its own folder", () => {
  test.each(exercises.map((e) => [e.id, e] as const))(
    "%s: the lesson's task names every export the tests use, the stub exports them, and it says what the tests check",
    (_id, exercise) => {
      const lesson = readFileSync(exercise.lesson, "utf8");
      const code = [...section(lesson, "Your task").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).join("\n");
      const stub = readFileSync(exercise.stub, "utf8");
      const names = judgedNames(exercise.hiddenTest);
      expect(names.length).toBeGreaterThan(0);
      expect(
        names.filter((name) => !new RegExp(`\\b${name}\\b`).test(code)),
        "judged but not in the lesson's task",
      ).toEqual([]);
      expect(
        names.filter((name) => !new RegExp(`export (?:declare )?(?:async )?(?:function|class|const|let|type|interface|enum) ${name}\\b`).test(stub)),
        "judged but not exported by the stub",
      ).toEqual([]);
      expect(section(lesson, "What the tests check").length, "what the tests check, in words").toBeGreaterThan(400);
    },
  );
});

test("no file of the repository cites a path outside it", () => {
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: paths.root, encoding: "utf8" }).split("\0").filter(Boolean);
  const outside = /\/work\/|\.\.\/shared\b|\/home\/[a-z]/;
  const citing = tracked
    .filter(
      (file) =>
        !/\.(png|jpg|ico)$/.test(file) && file !== "package-lock.json" && existsSync(join(paths.root, file)) && lstatSync(join(paths.root, file)).isFile(),
    )
    .flatMap((file) =>
      readFileSync(join(paths.root, file), "utf8")
        .split("\n")
        .flatMap((line, i) => (outside.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
  expect(tracked.length).toBeGreaterThan(300);
  expect(citing).toEqual([]);
});

/** Where a hidden test sets a time limit of its own: a third argument to test/it/describe, or a `timeout` option. */
function ownTimeLimits(hiddenTest: string): string[] {
  const file = ts.createSourceFile(hiddenTest, readFileSync(hiddenTest, "utf8"), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(file).split(".")[0];
      const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      if (["test", "it", "describe"].includes(callee ?? "")) {
        if (node.arguments.length > 2) found.push(`line ${line}: a limit after the body`);
        const options = node.arguments[1];
        if (options && ts.isObjectLiteralExpression(options) && options.properties.some((p) => p.name?.getText(file) === "timeout"))
          found.push(`line ${line}: a timeout option`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

test("no hidden test sets a time limit of its own: the runner's one hang limit holds for every test (checker/model/limits.ts)", () => {
  for (const exercise of exercises) expect(ownTimeLimits(exercise.hiddenTest), exercise.id).toEqual([]);
  expect(exercises.length).toBe(12);
});
