// Type-checks every exercises/*/hidden.test.ts the way the checker runs it: "lab:impl" is the
// exercise's solution and "lab:test" the test helpers. The mapping differs per exercise, so each
// gets its own program; they share one compiler host, so the SDK and helpers are parsed once.
import { readdirSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";

const root = resolve(import.meta.dirname, "..");
const exercisesDir = join(root, "exercises");
const { config } = ts.readConfigFile(join(exercisesDir, "tsconfig.json"), ts.sys.readFile);
const base = ts.parseJsonConfigFileContent(config, ts.sys, exercisesDir).options;
const helpers = join(root, "checker/testing/index.ts");

const host = ts.createCompilerHost(base);
const parsed = new Map();
const readSource = host.getSourceFile;
host.getSourceFile = (fileName, languageVersion, ...rest) => {
  const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
  if (!parsed.has(key)) parsed.set(key, readSource.call(host, fileName, languageVersion, ...rest));
  return parsed.get(key);
};

let failed = 0;
let checked = 0;
for (const folder of readdirSync(exercisesDir).sort()) {
  const hiddenTest = join(exercisesDir, folder, "hidden.test.ts");
  if (!existsSync(hiddenTest)) continue;
  const solution = join(root, "solutions", `${folder}.ts`);
  const options = { ...base, baseUrl: root, paths: { "lab:impl": [solution], "lab:test": [helpers] } };
  const program = ts.createProgram({ rootNames: [hiddenTest], options, host });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  checked++;
  if (diagnostics.length === 0) continue;
  failed++;
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
}
console.log(`hidden tests type-checked: ${checked}, with errors: ${failed}`);
process.exitCode = failed === 0 ? 0 : 1;
