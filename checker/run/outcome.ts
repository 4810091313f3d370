/** Maps vitest's view of a finished test file onto the runner's result types. */
import { readFileSync, statSync } from "node:fs";
import { inspect } from "node:util";
import { parseSync } from "rolldown/utils";
import type { TestCase, TestModule } from "vitest/node";
import { bugOfTest, type Exercise } from "../model/exercises.js";
import { REFUSAL_MARK } from "./walls/import-wall.js";
import { RUN_MESSAGES, type FileError, type TestOutcome } from "../model/result.js";
import type { Binding } from "./binding.js";
import { POOL_ERROR } from "./vitest-internals.js";
import { SYNTAX_MARK } from "../realm/bundle.js";
import { OUTPUT_META, REPORT_META } from "../realm/messages.js";

type ErrorLike = {
  message?: string;
  name?: string;
  stack?: string;
  expected?: unknown;
  actual?: unknown;
  frame?: string;
};

const ANSI = /\u001b\[[0-9;]*m/g;
/** Any value as readable text without ANSI colours; never throws (null-prototype objects included). */
const plain = (s: unknown) => (typeof s === "string" ? s : s === undefined || s === null ? "" : inspect(s, { depth: 4, breakLength: 100 })).replace(ANSI, "");
const firstLine = (s: string) =>
  s
    .split("\n")
    .find((l) => l.trim() !== "")
    ?.trim() ?? "";

function bugFor(name: string, exercise: Exercise): TestOutcome["bug"] {
  const id = bugOfTest(name);
  return id ? { id, summary: exercise.bugs[id] ?? "" } : null;
}

/** An assertion's own sentence that ends in "(<id> bug)", as written in a test's source: that assertion is the bug's signature. */
const SIGNATURE_IN_SOURCE = /\([a-z0-9]+(?:-[a-z0-9]+)* bug\)["'`]/;

type Node = { type: string; start: number; end: number; [field: string]: unknown };

/** Every node of an ESTree, depth first. */
function* nodesOf(value: unknown): Generator<Node> {
  if (Array.isArray(value)) for (const item of value) yield* nodesOf(item);
  else if (typeof value === "object" && value !== null) {
    if (typeof (value as Node).type === "string") yield value as Node;
    for (const field of Object.values(value)) if (typeof field === "object") yield* nodesOf(field);
  }
}

/** The name of a `test("name", …)` or `it("name", …)` call written as a plain string. */
function testNameOf(call: Node): string | null {
  const callee = call["callee"] as Node;
  const base = callee.type === "MemberExpression" ? (callee["object"] as Node) : callee;
  if (base.type !== "Identifier" || !["test", "it"].includes(base["name"] as string)) return null;
  const first = (call["arguments"] as Node[])[0];
  if (first?.type === "Literal" && typeof first["value"] === "string") return first["value"];
  const quasis = first?.type === "TemplateLiteral" ? (first["quasis"] as Node[]) : [];
  return quasis.length === 1 ? ((quasis[0]!["value"] as { cooked: string }).cooked ?? null) : null;
}

const signedCache = new Map<string, { mtimeMs: number; names: Set<string> }>();

/** The tests of a test file that mark which of their assertions are their bug's signature; read once per version of the file. */
function signedTests(testFile: string): Set<string> {
  let mtimeMs: number;
  try {
    mtimeMs = statSync(testFile).mtimeMs;
  } catch {
    return new Set();
  }
  const cached = signedCache.get(testFile);
  if (cached?.mtimeMs === mtimeMs) return cached.names;
  const source = readFileSync(testFile, "utf8");
  const names = new Set<string>();
  for (const node of nodesOf(parseSync(testFile, source, { lang: "ts" }).program)) {
    if (node.type !== "CallExpression") continue;
    const name = testNameOf(node);
    const body = (node["arguments"] as Node[]).at(-1);
    if (name !== null && body && SIGNATURE_IN_SOURCE.test(source.slice(body.start, body.end))) names.add(name);
  }
  signedCache.set(testFile, { mtimeMs, names });
  return names;
}

/**
 * Whether a failure of a test that names `bugId` is that bug's: in a test that marks its
 * signature assertions, only a failure of one of them; in any other test, every failure.
 */
export function isBugSignature(message: string, bugId: string, marksSignature: boolean): boolean {
  if (!marksSignature) return true;
  const sentence = message.split("\n")[0] ?? "";
  return sentence.includes(`(${bugId} bug)`);
}

export function outcomeOf(test: TestCase, exercise: Exercise): TestOutcome {
  const result = test.result();
  const ms = test.diagnostic()?.duration ?? 0;
  const state = result.state === "passed" ? "passed" : result.state === "failed" ? "failed" : result.state === "skipped" ? "skipped" : "not-run";
  const error = (result.errors?.[0] ?? null) as ErrorLike | null;
  const bug = bugFor(test.name, exercise);
  const message = error ? plain(error.message) || plain(error.name) || "The test failed." : "";
  const failure = error
    ? {
        message,
        ...(error.expected !== undefined ? { expected: plain(error.expected) } : {}),
        ...(error.actual !== undefined ? { received: plain(error.actual) } : {}),
        ...(bug ? { bugSignature: isBugSignature(message, bug.id, signedTests(test.module.moduleId).has(test.name)) } : {}),
      }
    : null;
  const note = result.state === "skipped" ? result.note : undefined;
  const meta = test.meta() as Record<string, unknown>;
  const [output, report] = [meta[OUTPUT_META], meta[REPORT_META]];
  return {
    name: test.name,
    state,
    ms,
    failure,
    bug,
    ...(note ? { note } : {}),
    ...(typeof output === "string" ? { output } : {}),
    ...(typeof report === "string" ? { report } : {}),
  };
}

/** Results per test, in file order; a test that never reported is "not-run". */
export function collectOutcome(binding: Binding, module: TestModule | undefined): TestOutcome[] {
  if (!module) return [...binding.tests.values()];
  return [...module.children.allTests()].map((test) => binding.tests.get(test.id) ?? outcomeOf(test, binding.exercise));
}

function codeLineAt(file: string, line: number): string | undefined {
  try {
    return readFileSync(file, "utf8").split("\n")[line - 1]?.trimEnd();
  } catch {
    return undefined;
  }
}

/** `file:line:col` from an error's stack, for a frame inside `file`. */
function locationIn(stack: string, file: string): { line: number; column: number } | null {
  for (const line of stack.split("\n")) {
    const at = line.indexOf(file);
    if (at < 0) continue;
    const match = /:(\d+):(\d+)\)?\s*$/.exec(line.slice(at + file.length));
    if (match) return { line: Number(match[1]), column: Number(match[2]) };
  }
  return null;
}

/** A problem with the file as a whole: it did not parse, or it threw while loading. */
export function fileErrorOf(binding: Binding, module: TestModule | undefined): FileError | null {
  const error = module?.errors()[0] as ErrorLike | undefined;
  if (!error) return null;
  const message = plain(error.message);
  const file = binding.implFile;
  // The loader's wall stopped an import (see import-wall.ts): its sentence says which and why.
  const refusal = message.split("\n").find((line) => line.includes(REFUSAL_MARK));
  if (refusal) return { kind: "import", message: refusal.slice(refusal.indexOf(REFUSAL_MARK)).trim(), file };
  // The bundler could not parse a learner's file (see realm/bundle.ts): its sentence names the place.
  const syntax = message.split("\n").find((line) => line.includes(SYNTAX_MARK));
  const at = syntax && /Syntax error in (.+):(\d+):(\d+): (.*)$/.exec(syntax.slice(syntax.indexOf(SYNTAX_MARK)));
  if (at) {
    const [, where, line, column, detail] = at as unknown as [string, string, string, string, string];
    const codeLine = codeLineAt(where, Number(line));
    return {
      kind: "syntax",
      message: RUN_MESSAGES.syntax(where, Number(line), Number(column), detail),
      file: where,
      line: Number(line),
      column: Number(column),
      ...(codeLine !== undefined ? { codeLine } : {}),
    };
  }
  // The learner's realm ended while the file loaded (process.exit, out of memory): its sentence says how.
  if (error.name === "RealmStopped") return { kind: "import", message: firstLine(message), file };
  const where = locationIn(plain(error.stack), file);
  const codeLine = where ? codeLineAt(file, where.line) : undefined;
  return {
    kind: "import",
    message: RUN_MESSAGES.importFailed(firstLine(message)),
    file,
    ...(where ? where : {}),
    ...(codeLine !== undefined ? { codeLine } : {}),
  };
}

export function unhandledErrorOf(error: unknown): FileError {
  const e = error as ErrorLike;
  const message = firstLine(plain(e?.message ?? error));
  if (POOL_ERROR.test(message)) return { kind: "crash", message: RUN_MESSAGES.crashed(message) };
  return { kind: "unhandled", message: `An error escaped the tests: ${message}` };
}
