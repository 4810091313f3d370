// Type-checks the exercise files (exercises/tsconfig.json: stubs, solutions, mutants, alternatives,
// references), then every exercises/*/hidden.test.ts the way the checker runs it: "lab:impl" is
// the exercise's solution, "lab:test" the shared test helpers and "lab:support" its own support/. The mapping differs per exercise, so
// each hidden test gets its own program; all share one compiler host, so each file is parsed once.
import { readdirSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { loadExercises } from "../dist/checker/model/exercises.js";

const root = resolve(import.meta.dirname, "..");
const exercisesDir = join(root, "exercises");
const { config } = ts.readConfigFile(join(exercisesDir, "tsconfig.json"), ts.sys.readFile);
const { options: base, fileNames } = ts.parseJsonConfigFileContent(config, ts.sys, exercisesDir);
const helpers = join(root, "checker/testing/index.ts");
// The mutants are checked as the full files the runner runs (dist/exercises/*/mutants/): loading
// the exercises writes any that are older than their diff or its base.
loadExercises(exercisesDir, join(root, "solutions"));

const host = ts.createCompilerHost(base);
const parsed = new Map();
const readSource = host.getSourceFile;
host.getSourceFile = (fileName, languageVersion, ...rest) => {
  const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
  if (!parsed.has(key)) parsed.set(key, readSource.call(host, fileName, languageVersion, ...rest));
  return parsed.get(key);
};

/** Reports the program's errors; true when there are none. */
function check(program) {
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  return diagnostics.length === 0;
}

const filesClean = check(ts.createProgram({ rootNames: fileNames, options: base, host }));
let failed = 0;
let checked = 0;
for (const folder of readdirSync(exercisesDir).sort()) {
  const hiddenTest = join(exercisesDir, folder, "hidden.test.ts");
  if (!existsSync(hiddenTest)) continue;
  const solution = join(root, "solutions", `${folder}.ts`);
  const support = join(exercisesDir, folder, "support", "index.ts");
  const paths = { "lab:impl": [solution], "lab:test": [helpers], ...(existsSync(support) ? { "lab:support": [support] } : {}) };
  const options = { ...base, baseUrl: root, paths };
  const program = ts.createProgram({ rootNames: [hiddenTest], options, host });
  checked++;
  if (!check(program)) failed++;
}
console.log(`exercise files (${fileNames.length}) ${filesClean ? "clean" : "with errors"}; hidden tests type-checked: ${checked}, with errors: ${failed}`);
process.exitCode = filesClean && failed === 0 ? 0 : 1;
