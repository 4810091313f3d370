/**
 * A run's result in the learner's words before anything shows it: an untouched stub is "not
 * started yet" rather than a bug the learner never wrote, and a name the tests import but the
 * file does not export is said once rather than once per test.
 */
import { readFileSync } from "node:fs";
import type { Exercise } from "../../checker/model/exercises.js";
import type { RunResult, TestOutcome } from "../../checker/model/result.js";
import { child, children, topLevel, type AstNode } from "../drill/parse-ts.js";

export const LEARNER_WORDS = {
  notStarted: 'Not started yet: this still throws the stub\'s "not implemented". Replace the throw with your code.',
  missingExports: (names: string[]) =>
    `Your file does not export ${names.map((n) => `"${n}"`).join(", ")}, which the hidden tests import by that name: the tests that use it fail until it does.`,
  missingExportRow: "Fails because of the missing export below.",
} as const;

const TYPE_ONLY = new Set(["TSInterfaceDeclaration", "TSTypeAliasDeclaration"]);

/** The value names a file exports (types left out); null when it does not parse. */
export function exportedNames(source: string): Set<string> | null {
  const { body, ok } = topLevel(source);
  if (!ok) return null;
  const names = new Set<string>();
  for (const node of body) {
    if (node.type === "ExportDefaultDeclaration") names.add("default");
    if (node.type !== "ExportNamedDeclaration" || node["exportKind"] === "type") continue;
    const declaration = child(node, "declaration");
    if (declaration && !TYPE_ONLY.has(declaration.type)) {
      const id = child(declaration, "id");
      if (id?.["name"]) names.add(String(id["name"]));
      for (const declarator of children(declaration, "declarations")) {
        const name = child(declarator, "id")?.["name"];
        if (name) names.add(String(name));
      }
    }
    for (const specifier of children(node, "specifiers")) {
      const exported = child(specifier, "exported") as AstNode | null;
      const name = exported?.["name"] ?? exported?.["value"];
      if (name && specifier["exportKind"] !== "type") names.add(String(name));
    }
  }
  return names;
}

const readOrNull = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
};

/** Names the stub exports that `file` does not; empty when either cannot be read or parsed. */
export function missingExports(exercise: Pick<Exercise, "stub">, file: string): string[] {
  const stub = readOrNull(exercise.stub);
  const mine = readOrNull(file);
  const wanted = stub === null ? null : exportedNames(stub);
  const has = mine === null ? null : exportedNames(mine);
  if (!wanted || !has) return [];
  return [...wanted].filter((name) => !has.has(name));
}

const failing = (t: TestOutcome) => t.state === "failed" || t.state === "not-run";
const isStubThrow = (t: TestOutcome) => failing(t) && /^(Error: )?not implemented$/.test(t.failure?.message.trim() ?? "");

/** The result with its failures in the learner's words; the same object when there is nothing to say differently. */
export function inLearnerWords(result: RunResult, exercise: Pick<Exercise, "stub">): RunResult {
  if (!result.tests.some(failing)) return result;
  const missing = result.error ? [] : missingExports(exercise, result.file);
  if (missing.length > 0) {
    // A test that failed for want of the export says so; one that failed on its own keeps its words.
    const forWant = (t: TestOutcome) =>
      failing(t) && missing.some((name) => new RegExp(`\\b${name}\\b.*\\bnot a (function|constructor)`).test(t.failure?.message ?? ""));
    const tests = result.tests.map((t) => (forWant(t) ? { ...t, failure: { message: LEARNER_WORDS.missingExportRow }, bug: null } : t));
    return { ...result, tests, error: { kind: "import", message: LEARNER_WORDS.missingExports(missing) } };
  }
  if (!result.tests.some(isStubThrow)) return result;
  return { ...result, tests: result.tests.map((t) => (isStubThrow(t) ? { ...t, failure: { message: LEARNER_WORDS.notStarted }, bug: null } : t)) };
}
