/**
 * Two chunks vitest's worker imports lazily at the start of every run (its console and its
 * snapshot environment): ~8 ms a run, paid after the save. A warm spare imports them while
 * it waits. The names carry vitest's build hashes, so they belong to the pinned version; a
 * test fails when an upgrade renames them.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export const LAZY_RUN_CHUNKS = ["console.3WNpx0tS.js", "node.COQbm6gK.js"] as const;

export function lazyRunChunkFiles(): string[] {
  const vitest = dirname(createRequire(import.meta.url).resolve("vitest/package.json"));
  return LAZY_RUN_CHUNKS.map((name) => join(vitest, "dist/chunks", name));
}
