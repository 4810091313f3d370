// npm run bench:cli — `lab --help` and `lab list` (plain, piped) as whole processes, spawn to exit.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const RUNS = 20;
const TARGET_MS = 150;
const bin = fileURLToPath(new URL("../bin/lab.js", import.meta.url));
const cwd = mkdtempSync(join(tmpdir(), "lab-bench-cli-"));
writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws" };\n`);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function time(args, script = bin) {
  const samples = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const t0 = performance.now();
    const run = spawnSync(process.execPath, [script, ...args], { cwd, encoding: "utf8", env: { ...process.env, CI: "" } });
    const ms = performance.now() - t0;
    if (run.status !== 0) throw new Error(`lab ${args.join(" ")} exited ${run.status}: ${run.stderr}`);
    if (i > 0) samples.push(ms); // the first run warms the disk cache
  }
  return samples;
}

console.log(`lab as a whole process, spawn to exit, median of ${RUNS} (stdout piped, so lab list prints plain lines)`);
for (const args of [["--help"], ["list"]]) {
  const samples = time(args);
  const m = median(samples);
  console.log(
    `  lab ${args.join(" ").padEnd(7)} median ${m.toFixed(1)} ms  min ${Math.min(...samples).toFixed(1)} ms  max ${Math.max(...samples).toFixed(1)} ms  (target ≤ ${TARGET_MS} ms: ${m <= TARGET_MS ? "met" : "NOT met"})`,
  );
}
// For scale: a Node process that does nothing, on this machine, now.
writeFileSync(join(cwd, "empty.mjs"), "");
console.log(`  node alone  median ${median(time([], join(cwd, "empty.mjs"))).toFixed(1)} ms  (what any command pays before lab's own code)`);
rmSync(cwd, { recursive: true, force: true });
