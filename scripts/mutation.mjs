// npm run mutation [-- 04 05 …]: Stryker mutates each solutions/NN-slug.ts and runs that exercise's
// hidden test against every mutant (stryker/vitest.config.mjs binds "lab:impl" to the mutated file),
// then prints the mutation score per exercise. A surviving mutant that no test can tell from the
// solution is listed, with its reason, in exercises/NN-slug/equivalent-mutants.json and counted out.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Stryker } from "@stryker-mutator/core";

const root = resolve(import.meta.dirname, "..");
const reportDir = join(root, "reports", "mutation");
const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

const wanted = process.argv.slice(2).map((a) => a.padStart(2, "0"));
const exercises = readdirSync(join(root, "exercises"))
  .filter((f) => /^\d\d-/.test(f) && existsSync(join(root, "solutions", `${f}.ts`)))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
if (exercises.length === 0) {
  console.error(`No exercise matches ${wanted.join(", ")}.`);
  process.exit(2);
}

/** A mutant as the equivalents file names it: line:column, the mutator and what it put there. */
const keyOf = (m) => `${m.location.start.line}:${m.location.start.column}|${m.mutatorName}|${m.replacement ?? ""}`;

function equivalentsOf(exercise) {
  const file = join(root, "exercises", exercise, "equivalent-mutants.json");
  if (!existsSync(file)) return new Map();
  const list = JSON.parse(readFileSync(file, "utf8"));
  return new Map(list.map((e) => [`${e.at}|${e.mutator}|${e.replacement}`, e.why]));
}

const percent = (n) => `${(100 * n).toFixed(1)} %`;
mkdirSync(reportDir, { recursive: true });
const rows = [];
const started = Date.now();
for (const exercise of exercises) {
  process.env["LAB_MUTATION_EXERCISE"] = exercise;
  process.env["LAB_MUTATION_ROOT"] = root;
  const began = Date.now();
  const results = await new Stryker({
    mutate: [`solutions/${exercise}.ts`],
    testRunner: "vitest",
    vitest: { configFile: "stryker/vitest.config.mjs", related: false },
    plugins: ["@stryker-mutator/vitest-runner"],
    coverageAnalysis: "perTest",
    concurrency: Number(process.env["LAB_MUTATION_CONCURRENCY"] ?? 2),
    timeoutMS: 10_000,
    reporters: ["json"],
    jsonReporter: { fileName: join(reportDir, `${exercise}.json`) },
    tempDirName: join(".stryker-tmp", exercise),
    ignorePatterns: ["/*", "!/package.json", "!/solutions", "!/exercises", "!/dist", "!/stryker", "!/checker", "/exercises/*/fixtures"],
    logLevel: /** @type {any} */ ("error"),
    fileLogLevel: /** @type {any} */ ("off"),
    cleanTempDir: "always",
  }).runMutationTest();
  const equivalents = equivalentsOf(exercise);
  const listed = new Set();
  const survivors = [];
  let detected = 0;
  let undetected = 0;
  let equivalent = 0;
  for (const m of results) {
    if (DETECTED.has(m.status)) detected++;
    else if (UNDETECTED.has(m.status)) {
      const key = keyOf(m);
      if (equivalents.has(key)) {
        listed.add(key);
        equivalent++;
      } else {
        undetected++;
        survivors.push(
          `  ${exercise}.ts:${m.location.start.line}:${m.location.start.column} ${m.mutatorName} → ${JSON.stringify(m.replacement)} (${m.status})`,
        );
      }
    }
  }
  const stale = [...equivalents.keys()].filter((k) => !listed.has(k));
  const raw = detected / (detected + undetected + equivalent || 1);
  const score = detected / (detected + undetected || 1);
  rows.push({ exercise, mutants: results.length, detected, equivalent, survived: undetected, raw, score, seconds: Math.round((Date.now() - began) / 1000) });
  console.log(
    `${exercise}: ${percent(score)} (${detected} killed, ${undetected} survived, ${equivalent} equivalent; ${percent(raw)} counting them) in ${rows.at(-1)?.seconds} s`,
  );
  for (const line of survivors) console.log(line);
  for (const key of stale) console.log(`  listed as equivalent but not a survivor any more: ${key}`);
}
console.log("");
console.log("exercise               score   killed  survived  equivalent  seconds");
for (const r of rows)
  console.log(
    `${r.exercise.padEnd(22)} ${percent(r.score).padStart(7)}  ${String(r.detected).padStart(6)}  ${String(r.survived).padStart(8)}  ${String(r.equivalent).padStart(10)}  ${String(r.seconds).padStart(7)}`,
  );
console.log(`total: ${Math.round((Date.now() - started) / 1000)} s`);
writeFileSync(join(reportDir, "scores.json"), `${JSON.stringify(rows, null, 2)}\n`);
process.exitCode = rows.every((r) => r.score >= 0.85) ? 0 : 1;
