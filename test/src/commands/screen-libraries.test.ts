import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";

// Loading Ink and React costs a command ~130 ms bundled (~390 ms as the package's files): only
// an interactive screen may pay it. Read from the built JavaScript, where an import that only
// names types is gone: what is left is what Node loads.

const dist = resolve(import.meta.dirname, "../../../dist");
const SCREEN_LIBRARIES = new Set(["ink", "#ink", "react", "react/jsx-runtime"]);

/** The specifiers `file` imports before it runs (import and export … from); import() is left out. */
function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) =>
    (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
      ? [statement.moduleSpecifier.text]
      : [],
  );
}

/** Every screen library `entry` loads by static imports alone, each with the chain of files that leads to it. */
function screenLibrariesLoadedBy(entry: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (SCREEN_LIBRARIES.has(spec)) found.push([...chain, file, spec].map((f) => f.replace(`${dist}/`, "")).join(" → "));
      else if (spec.startsWith(".")) walk(resolve(dirname(file), spec), [...chain, file]);
    }
  };
  walk(entry, []);
  return found;
}

const commands = readdirSync(join(dist, "src/commands"))
  .filter((f) => f.endsWith(".js"))
  .map((f) => join(dist, "src/commands", f));

test("finds the built commands it checks", () => {
  expect(commands.length).toBeGreaterThanOrEqual(15);
  expect(existsSync(join(dist, "src/cli/main.js"))).toBe(true);
});

test("no command loads Ink or React before it knows it draws a screen: screens are reached only by import()", () => {
  const loaded = [join(dist, "src/cli/main.js"), ...commands].flatMap(screenLibrariesLoadedBy);
  expect([...new Set(loaded)]).toEqual([]);
});

test("the screens themselves do load them, so the check above can see a screen library when one is there", () => {
  const chains = screenLibrariesLoadedBy(join(dist, "src/screen/run-screen.js"));
  expect(chains).toContain("src/screen/run-screen.js → react/jsx-runtime");
  expect(chains.some((chain) => chain.endsWith(" → #ink"))).toBe(true);
});
