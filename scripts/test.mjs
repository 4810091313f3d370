// `npm test [-- vitest args]`: the build when anything changed since the last one
// (scripts/build-stamp.mjs), then the suite, with every command of `npm run typecheck` and
// `npm run lint` running beside it at the lowest priority. The suite keeps both cores busy but
// for moments (while one slow file runs alone, say); the checks take those moments instead of
// ~12 s of their own before it. Their output is printed whole after the suite's, in
// package.json's order, and the closing line comes last: "N passed, M failed", a failing check
// counted as a failure.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { delimiter, join } from "node:path";

const root = join(import.meta.dirname, "..");
const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const env = { ...process.env, PATH: `${join(root, "node_modules/.bin")}${delimiter}${process.env.PATH}` };

if (spawnSync(process.execPath, [join(root, "scripts/build-stamp.mjs"), "if-stale"], { cwd: root, stdio: "inherit" }).status !== 0) process.exit(1);

/** Runs one command through the shell, as npm would, and keeps what it printed. */
function check(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { cwd: root, env, shell: true, stdio: ["ignore", "pipe", "pipe"] });
    try {
      if (child.pid !== undefined) setPriority(child.pid, 19);
    } catch {
      // Not allowed here: it runs at the usual priority, which costs time, never a result.
    }
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code, signal) => resolve({ command, code: code ?? 1, signal, output }));
  });
}

const checks = Promise.all(["typecheck", "lint"].flatMap((name) => scripts[name].split("&&").map((command) => check(command.trim()))));

// The suite's reporter (test/support/summary-reporter.ts) leaves its counts here instead of printing them.
const scratch = mkdtempSync(join(tmpdir(), "lab-npm-test-"));
const summaryFile = join(scratch, "summary.json");
const suite = spawnSync(process.execPath, [join(root, "node_modules/vitest/vitest.mjs"), "run", ...process.argv.slice(2)], {
  cwd: root,
  env: { ...env, LAB_SUMMARY_FILE: summaryFile },
  stdio: "inherit",
});

const results = await checks;
const failedChecks = results.filter((r) => r.code !== 0);
console.log();
for (const { command, code, signal, output } of results) {
  console.log(`> ${command}${code === 0 ? "" : `  (failed: ${signal ?? `exit ${code}`})`}`);
  if (output.trim()) console.log(output.trimEnd());
}
let counts = { passed: 0, failed: 1 };
try {
  counts = JSON.parse(readFileSync(summaryFile, "utf8"));
} catch {
  console.log(`The suite ended without its summary (${suite.signal ?? `exit ${suite.status}`}).`);
}
rmSync(scratch, { recursive: true, force: true });
console.log(`\n${counts.passed} passed, ${counts.failed + failedChecks.length} failed`);
process.exitCode = suite.status !== 0 || failedChecks.length > 0 ? 1 : 0;
