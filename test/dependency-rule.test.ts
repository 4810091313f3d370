import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import { loadExercises } from "../checker/model/exercises.js";

// The layering rule, checked from the import specifiers themselves (static, dynamic, re-exports
// and type-only imports alike): bin launches, src/ is the screen and commands, checker/ is the
// engine and names no exercise, exercises/ and solutions/ are data that must run on their own,
// beside each exercise's trusted code (support/ and scenarios.ts), which stands on the engine's kit.

const root = resolve(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts"))
    .map((f) => join(dir, f).split(sep).join("/"));
}

function specifiers(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
  return info.importedFiles.map((i) => i.fileName);
}

/** A relative specifier as a repo path without extension, e.g. "checker/model/result". */
function target(file: string, spec: string): string {
  return relative(root, resolve(root, dirname(file), spec))
    .split(sep)
    .join("/")
    .replace(/\.(js|ts|tsx|jsx|mjs)$/, "");
}

const isBuiltin = (spec: string) => spec.startsWith("node:") || builtinModules.includes(spec);
const isSdk = (spec: string) => spec === "@anthropic-ai/sdk" || spec.startsWith("@anthropic-ai/sdk/");

/** Every import of `files` that `allowed` refuses, as "file → specifier". */
function violations(files: string[], allowed: (spec: string, file: string) => boolean): string[] {
  return files.flatMap((file) =>
    specifiers(file)
      .filter((spec) => !allowed(spec, file))
      .map((spec) => `${file} → ${spec}`),
  );
}

const inside = (prefix: string) => (spec: string, file: string) => !spec.startsWith(".") || !target(file, spec).startsWith(prefix);

const src = sourceFiles("src");
const checker = sourceFiles("checker");
const exerciseFiles = sourceFiles("exercises");
const hiddenTests = exerciseFiles.filter((f) => f.endsWith("/hidden.test.ts"));
const tier2 = exerciseFiles.filter((f) => f.endsWith("/reference/tier2.ts"));
/** An exercise's own trusted code: the helpers its hidden tests import as lab:support, and its scenarios. */
const exerciseCode = exerciseFiles.filter((f) => /^exercises\/[^/]+\/(support\/|scenarios\.ts$)/.test(f));
/** Each mutant as the full file the runner runs (a diff's is written under dist/exercises/). */
const mutants = loadExercises(join(root, "exercises"), join(root, "solutions")).flatMap((e) =>
  e.mutants.map((m) => relative(root, m.file).split(sep).join("/")),
);
const standalone = [
  ...exerciseFiles.filter((f) => !hiddenTests.includes(f) && !tier2.includes(f) && !exerciseCode.includes(f)),
  ...sourceFiles("solutions"),
  ...mutants,
];
/** The exercise folders, by name: what the engine must never name. */
const exerciseNames = readdirSync(join(root, "exercises")).filter((f) => /^\d{2}-/.test(f));

describe("the dependency rule", () => {
  test("finds the files it rules over", () => {
    expect(src.length).toBeGreaterThan(20);
    expect(checker.length).toBeGreaterThan(20);
    expect(hiddenTests.length).toBeGreaterThanOrEqual(10);
    expect(tier2.length).toBeGreaterThanOrEqual(1);
    expect(mutants.length).toBeGreaterThan(100);
    expect(exerciseCode.filter((f) => f.endsWith("/scenarios.ts")).length).toBeGreaterThanOrEqual(5);
    expect(exerciseCode.filter((f) => f.includes("/support/")).length).toBeGreaterThanOrEqual(5);
  });

  test("the engine (checker/) never imports src/, bin/ or the screen's libraries", () => {
    const screenLibs = new Set(["ink", "#ink", "react", "react/jsx-runtime", "ink-testing-library"]);
    expect(violations(checker, (spec, file) => inside("src/")(spec, file) && inside("bin/")(spec, file) && !screenLibs.has(spec))).toEqual([]);
  });

  test("below the CLI nothing imports src/cli or src/commands: the screens, drills and grading take terminal helpers from src/terminal", () => {
    const cli = (file: string) => file.startsWith("src/cli/") || file.startsWith("src/commands/");
    expect(
      violations(
        src.filter((f) => !cli(f)),
        (spec, file) => inside("src/cli/")(spec, file) && inside("src/commands/")(spec, file),
      ),
    ).toEqual([]);
  });

  test("src/ and checker/ never import exercise data or tests", () => {
    const noData = (spec: string, file: string) => ["exercises/", "solutions/", "test/"].every((p) => inside(p)(spec, file));
    // Known exception: lab triage is exercise 11's own command, and runs that exercise's reference parts and fixture.
    const known = [
      "src/commands/triage-desk.ts → ../../exercises/11-integrated/support/index.js",
      "src/commands/triage.ts → ../../exercises/11-integrated/support/index.js",
    ];
    expect(violations([...src, ...checker], noData)).toEqual(known);
  });

  test("the engine (checker/) names no exercise: not by its folder, not by its number", () => {
    const named = checker.flatMap((file) => {
      const text = readFileSync(join(root, file), "utf8");
      const names = exerciseNames.filter((name) => text.includes(name));
      const numbers = text.match(/\b[Ee]xercises? \d+/g) ?? [];
      return [...names, ...numbers].map((n) => `${file}: ${n}`);
    });
    expect(exerciseNames.length).toBeGreaterThanOrEqual(12);
    expect(named).toEqual([]);
  });

  test("an exercise's support/ and scenarios.ts import only their own folder, the engine's kit (lab:test, the scenario helpers), the SDK and Node built-ins", () => {
    const kit = ["checker/testing/index", "checker/provider/scenarios/helpers"];
    const allowed = (spec: string, file: string) => {
      if (isSdk(spec) || spec === "#anthropic-sdk" || isBuiltin(spec)) return true;
      if (!spec.startsWith(".")) return false;
      const to = target(file, spec);
      return kit.includes(to) || to.startsWith(file.split("/").slice(0, 2).join("/") + "/");
    };
    expect(violations(exerciseCode, allowed)).toEqual([]);
  });

  test("exercise files import only the SDK and Node built-ins (tier 2 also LangChain)", () => {
    expect(violations(standalone, (spec) => isSdk(spec) || isBuiltin(spec))).toEqual([]);
    // Known exception, to be made self-contained: exercise 8's tier 2 borrows tier 3's offloader.
    const known = ["exercises/08-offloading/reference/tier2.ts → ./tier3.js"];
    expect(violations(tier2, (spec) => isSdk(spec) || isBuiltin(spec) || spec.startsWith("@langchain/"))).toEqual(known);
  });

  test("hidden tests import only vitest, lab:impl, lab:test, lab:support, the SDK and Node built-ins", () => {
    const allowed = new Set(["vitest", "lab:impl", "lab:test", "lab:support"]);
    expect(violations(hiddenTests, (spec) => allowed.has(spec) || isSdk(spec) || isBuiltin(spec))).toEqual([]);
  });
});

/** Each cycle among src/ and checker/ modules once, as its members sorted and joined. */
function importCycles(files: string[]): string[] {
  const modules = new Set(files.map((f) => f.replace(/\.tsx?$/, "")));
  const edges = new Map(
    files.map((f) => [
      f.replace(/\.tsx?$/, ""),
      specifiers(f)
        .filter((s) => s.startsWith("."))
        .map((s) => target(f, s))
        .filter((t) => modules.has(t)),
    ]),
  );
  // Tarjan's strongly connected components: any component of two or more modules is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (m: string) => {
    index.set(m, index.size);
    low.set(m, index.get(m)!);
    stack.push(m);
    for (const next of edges.get(m) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(m, Math.min(low.get(m)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(m, Math.min(low.get(m)!, index.get(next)!));
      }
    }
    if (low.get(m) !== index.get(m)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== m);
    if (component.length > 1) cycles.push(component.sort().join(" ⇄ "));
  };
  for (const m of modules) if (!index.has(m)) visit(m);
  return cycles.sort();
}

test("no import cycle among src/ and checker/", () => {
  expect(importCycles([...src, ...checker])).toEqual([]);
});
