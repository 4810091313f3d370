// npm run dev: the build once, then again on every change, so dist/ never lags the sources (the
// suite refuses one that does, see test/support/fresh-build.ts). tsc --watch recompiles the engine
// and the CLI; a change under exercises/ or solutions/ reruns scripts/build-exercises.mjs (each
// exercise's support, scenarios and mutants). Ctrl-C stops both.
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { watch } from "chokidar";

const root = join(import.meta.dirname, "..");
const node = (script, ...args) => spawnSync(process.execPath, [join(root, script), ...args], { cwd: root, stdio: "inherit" });

if (spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" }).status !== 0) process.exit(1);

const tsc = spawn(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json", "--watch", "--preserveWatchOutput"], {
  cwd: root,
  stdio: "inherit",
});

let pending = null;
const exercises = watch([join(root, "exercises"), join(root, "solutions")], { ignoreInitial: true }).on("all", () => {
  clearTimeout(pending);
  // One rebuild for a burst of saves (an editor writes, renames, touches).
  pending = setTimeout(() => node("scripts/build-exercises.mjs"), 150);
});

const stop = () => {
  tsc.kill();
  void exercises.close();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
tsc.on("exit", (code) => {
  void exercises.close();
  process.exitCode = code ?? 0;
});
