// The build's last step: every mutant stored as a diff (exercises/NN-slug/mutants/<bug>.diff) is
// written out as a full file, dist/exercises/NN-slug/mutants/<bug>.ts, for whatever needs one (the
// runner, lab check --file, the type check). A diff that no longer applies, or applies in more than
// one place, fails the build with its file and line. `node scripts/build-mutants.mjs [lab folder]`.
import { join, resolve } from "node:path";
import { surveyExercises, writeExerciseMutants } from "../dist/checker/model/exercises.js";

const root = resolve(process.argv[2] ?? join(import.meta.dirname, ".."));
const { exercises, problems } = surveyExercises(join(root, "exercises"), join(root, "solutions"));
let written = 0;
for (const exercise of exercises) {
  try {
    written += writeExerciseMutants(exercise, { always: true }).length;
  } catch (err) {
    problems.push(err);
  }
}
for (const problem of problems) process.stderr.write(`${problem.message}\n`);
if (problems.length > 0) {
  process.stderr.write(`The build stops: ${problems.length === 1 ? "an exercise does" : `${problems.length} exercises do`} not load.\n`);
  process.exitCode = 1;
} else console.log(`mutants: ${written} written as full files under dist/exercises/`);
