/**
 * A run's result in the learner's words before anything shows it: a stub not started yet says
 * so on every test rather than blaming a bug the learner never wrote; a name the tests import
 * but the file does not export is said once rather than once per test; matcher texts are in
 * plain words (plain-words.ts), and an assertion's mark as its bug's signature is left out.
 */
import { readFileSync } from "node:fs";
import type { Exercise } from "../../checker/model/exercises.js";
import type { RunResult, TestOutcome } from "../../checker/model/result.js";
import { child, children, topLevel, type AstNode } from "../drill/parse-ts.js";
import { failureWords } from "./failure-words.js";
import { plainMatcherText, plainOtherText } from "./plain-words.js";

export const LEARNER_WORDS = {
  notStarted: "Not started yet: this still throws the stub's placeholder error. Replace the throw with your code.",
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

/** A stub's placeholder throw, `throw new Error("not implemented")` or any other text: each message it throws, as often as it throws it. */
const PLACEHOLDER = /throw new Error\((["'`])(.*?)\1\)/g;
const placeholders = (source: string) => [...source.matchAll(PLACEHOLDER)].map((m) => m[2]!);

/** The stub's placeholder messages, and whether `file` still throws every one of them: nothing in it is started. */
function stubState(exercise: Pick<Exercise, "stub">, file: string): { messages: string[]; untouched: boolean } {
  const stub = readOrNull(exercise.stub);
  const mine = readOrNull(file);
  const messages = stub === null ? [] : placeholders(stub);
  if (mine === null || messages.length === 0) return { messages, untouched: false };
  const left = placeholders(mine);
  const untouched = messages.every((message) => {
    const at = left.indexOf(message);
    return at >= 0 && left.splice(at, 1).length === 1;
  });
  return { messages: [...new Set(messages)], untouched };
}

/** A failure a stub's throw caused: said by the test, or caught by it and shown as what it found. */
const isStubThrow = (t: TestOutcome, messages: string[]) =>
  failing(t) && [t.failure?.message, t.failure?.expected, t.failure?.received].some((text) => text !== undefined && messages.some((m) => text.includes(m)));

/** An assertion's mark as its bug's signature: "(<id> bug)" at the end of its sentence. */
const SIGNATURE_MARK = / \([a-z0-9]+(?:-[a-z0-9]+)* bug\)$/;

/** A failure's message with the matcher's text in plain words and the signature mark left out. */
export function plainFailureMessage(message: string): string {
  const words = failureWords(message);
  if (words.instead === null) return plainOtherText(message);
  const plain = plainMatcherText(words.instead);
  return words.checked === null ? plain : `${words.checked.replace(SIGNATURE_MARK, "")}: ${plain}`;
}

function inPlainWords(result: RunResult): RunResult {
  const said = (t: TestOutcome): TestOutcome => {
    if (!t.failure) return t;
    const message = plainFailureMessage(t.failure.message);
    return message === t.failure.message ? t : { ...t, failure: { ...t.failure, message } };
  };
  const tests = result.tests.map(said);
  return tests.every((t, i) => t === result.tests[i]) ? result : { ...result, tests };
}

/** The result with its failures in the learner's words; the same object when there is nothing to say differently. */
export function inLearnerWords(result: RunResult, exercise: Pick<Exercise, "stub">): RunResult {
  if (!result.tests.some(failing)) return result;
  const missing = result.error ? [] : missingExports(exercise, result.file);
  if (missing.length > 0) {
    // A test that failed for want of the export says so; one that failed on its own keeps its words.
    const forWant = (t: TestOutcome) =>
      failing(t) && missing.some((name) => new RegExp(`\\b${name}\\b.*\\bnot a (function|constructor)`).test(t.failure?.message ?? ""));
    const tests = result.tests.map((t) => (forWant(t) ? { ...t, failure: { message: LEARNER_WORDS.missingExportRow }, bug: null } : t));
    return inPlainWords({ ...result, tests, error: { kind: "import", message: LEARNER_WORDS.missingExports(missing) } });
  }
  const stub = stubState(exercise, result.file);
  const untouched = !result.error && stub.untouched;
  const stubbed = (t: TestOutcome) => (untouched ? t.state === "failed" : isStubThrow(t, stub.messages));
  if (!result.tests.some(stubbed)) return inPlainWords(result);
  const tests = result.tests.map((t) => (stubbed(t) ? { ...t, failure: { message: LEARNER_WORDS.notStarted }, bug: null } : t));
  return inPlainWords({ ...result, tests });
}
