// When the last build started, so `npm test` can skip a build that nothing has changed since
// (after `npm ci`, whose prepare step has just built). `npm run build` brackets itself with
// `begin` (empties dist/ and notes the time) and `end` (keeps that time as dist/.build-stamp);
// a build that fails leaves no stamp. `if-stale` builds when there is no stamp, or when any of
// the build's inputs changed after the stamped build began, and says which.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dirname, "..");
const started = join(root, "dist/.build-started");
const stamp = join(root, "dist/.build-stamp");
/** What the build reads: its sources, the exercises' support and mutants, its scripts, the installed packages. */
const INPUTS = [
  "src",
  "checker",
  "exercises",
  "solutions",
  "scripts",
  "bin",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "node_modules/.package-lock.json",
];

/** The first input changed after `since`, or null. */
function changedSince(since) {
  const visit = (path) => {
    if (!existsSync(path)) return null;
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.mtimeMs > since ? path : null;
    for (const entry of readdirSync(path)) {
      const found = entry === "node_modules" ? null : visit(join(path, entry));
      if (found) return found;
    }
    return null;
  };
  for (const input of INPUTS) {
    const found = visit(join(root, input));
    if (found) return relative(root, found);
  }
  return null;
}

const step = process.argv[2];
if (step === "begin") {
  rmSync(join(root, "dist"), { recursive: true, force: true });
  mkdirSync(join(root, "dist"));
  writeFileSync(started, String(Date.now()));
} else if (step === "end") {
  renameSync(started, stamp);
} else if (step === "if-stale") {
  const since = existsSync(stamp) ? Number(readFileSync(stamp, "utf8")) : null;
  const changed = since === null ? "no finished build" : changedSince(since);
  if (changed === null) console.log("build: dist/ is as new as every input, not built again");
  else {
    console.log(`build: ${changed === "no finished build" ? changed : `${changed} changed since the last build`}, building`);
    process.exitCode = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" }).status ?? 1;
  }
} else {
  console.error("usage: node scripts/build-stamp.mjs begin | end | if-stale");
  process.exitCode = 2;
}
