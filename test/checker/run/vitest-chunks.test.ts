import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { expect, test } from "vitest";
import { lazyRunChunkFiles } from "../../../checker/run/vitest-chunks.js";

test("the chunks a warm spare pre-imports exist and are the ones vitest's worker imports lazily", () => {
  const files = lazyRunChunkFiles();
  const chunks = dirname(files[0]!);
  const lazyImports = readdirSync(chunks)
    .filter((name) => name.endsWith(".js"))
    .flatMap((name) => [...readFileSync(`${chunks}/${name}`, "utf8").matchAll(/await import\('\.\/([^']+)'\)/g)].map((m) => m[1]));
  for (const file of files) {
    expect(existsSync(file), file).toBe(true);
    expect(lazyImports).toContain(basename(file));
  }
});
