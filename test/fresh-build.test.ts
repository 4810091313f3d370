import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, test } from "vitest";
import { compiledSources, staleBuild, staleMessage } from "./support/fresh-build.js";
import { tempDir } from "./support/temp-dir.js";

/** A lab folder with these files, each written at the given time (seconds). */
function lab(files: Record<string, number>): string {
  const root = tempDir("fresh-build");
  for (const [path, at] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), "");
    utimesSync(join(root, path), at, at);
  }
  return root;
}

test("the suite's sources are the engine's, the CLI's and each exercise's support and scenarios, never tests or declarations", () => {
  const root = lab({
    "src/cli/main.ts": 1,
    "src/screen/view.tsx": 1,
    "src/cli/main.test.ts": 1,
    "checker/paths.ts": 1,
    "checker/types.d.ts": 1,
    "exercises/04-loop-guard/support/index.ts": 1,
    "exercises/04-loop-guard/scenarios.ts": 1,
    "exercises/04-loop-guard/stub.ts": 1,
  });
  expect(compiledSources(root)).toEqual([
    "checker/paths.ts",
    "exercises/04-loop-guard/scenarios.ts",
    "exercises/04-loop-guard/support/index.ts",
    "src/cli/main.ts",
    "src/screen/view.tsx",
  ]);
});

test("a build newer than every source passes; a source edited after it, or never built, is named in one sentence", () => {
  expect(staleBuild(lab({ "checker/paths.ts": 100, "dist/checker/paths.js": 200 }))).toBeNull();
  expect(staleBuild(lab({ "checker/paths.ts": 300, "dist/checker/paths.js": 200 }))).toBe(staleMessage("checker/paths.ts", "dist/checker/paths.js"));
  expect(staleBuild(lab({ "src/screen/view.tsx": 100 }))).toBe(
    "The build is older than its sources: src/screen/view.tsx changed after dist/src/screen/view.js was built; run npm run build (or keep npm run dev running) and test again.",
  );
});
