// The build's last step, for what exercise folders hold beside their data (see exercises/README.md):
// each exercise's support/ (what its hidden tests import as "lab:support") and scenarios.ts (found
// by the provider) compiled to dist/exercises/NN-slug/, one file at a time with TypeScript's own
// compiler (npm run typecheck checks their types with the rest), and every mutant stored as a diff
// written out as a full file, dist/exercises/NN-slug/mutants/<bug>.ts. A diff that no longer
// applies, or applies in more than one place, fails the build with its file and line.
// `node scripts/build-exercises.mjs [lab folder]`: the lab this script is in, or another copy.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { surveyExercises, writeExerciseMutants } from "../dist/checker/model/exercises.js";

const root = resolve(process.argv[2] ?? join(import.meta.dirname, ".."));
const compilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, sourceMap: true, inlineSources: true };

/** The exercise folder's code the engine runs: support/**\/*.ts and scenarios.ts. */
function codeOf(dir) {
  const support = join(dir, "support");
  const files = readdirSync(dir).includes("support")
    ? readdirSync(support, { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
        .map((f) => join(support, f))
    : [];
  return readdirSync(dir).includes("scenarios.ts") ? [...files, join(dir, "scenarios.ts")] : files;
}

const { exercises, problems } = surveyExercises(join(root, "exercises"), join(root, "solutions"));
let compiled = 0;
let written = 0;
for (const exercise of exercises) {
  for (const file of codeOf(exercise.dir)) {
    const out = join(exercise.built, relative(exercise.dir, file)).replace(/\.ts$/, ".js");
    const { outputText, sourceMapText } = ts.transpileModule(readFileSync(file, "utf8"), { compilerOptions, fileName: file });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, outputText.replace(/\/\/# sourceMappingURL=.*$/, `//# sourceMappingURL=${out.split("/").at(-1)}.map`));
    writeFileSync(`${out}.map`, sourceMapText ?? "");
    compiled++;
  }
  try {
    written += writeExerciseMutants(exercise, { always: true }).length;
  } catch (err) {
    problems.push(/** @type {import("../dist/checker/model/exercises.js").ExerciseError} */ (err));
  }
}
for (const problem of problems) process.stderr.write(`${problem.message}\n`);
if (problems.length > 0) {
  process.stderr.write(`The build stops: ${problems.length === 1 ? "an exercise does" : `${problems.length} exercises do`} not load.\n`);
  process.exitCode = 1;
} else console.log(`exercises: ${compiled} support and scenario files compiled, ${written} mutants written as full files, under dist/exercises/`);
