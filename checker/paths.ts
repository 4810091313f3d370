import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The harness-lab package folder, found by walking up from this file (works from src and dist). */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "harness-lab") return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("Could not find the harness-lab package folder.");
    dir = parent;
  }
}

/** Where the lab's own content and compiled engine live. */
export function labPaths(root = packageRoot()) {
  return {
    root,
    exercises: join(root, "exercises"),
    solutions: join(root, "solutions"),
    dist: join(root, "dist"),
    labTest: join(root, "dist/checker/testing/index.js"),
    /** The trusted side's half of "lab:impl" (see checker/realm/lab-impl.ts). */
    labImpl: join(root, "dist/checker/realm/lab-impl.js"),
    preload: join(root, "dist/checker/run/workers/preload.js"),
    outsideWatcher: join(root, "dist/checker/run/stopping/outside-watcher.js"),
  };
}
