/**
 * o200k_base's 200,000 byte-pair ranks, fast. gpt-tokenizer ships them as a 2.4 MB
 * JavaScript array literal, and each worker process (one per graded pair) spent ~140 ms
 * parsing it. The build writes the same array V8-serialized beside this file, which loads
 * in ~25 ms. A missing, stale or unreadable copy falls back to the library's array.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { deserialize, serialize } from "node:v8";

export type Ranks = Array<string | number[]>;

interface RanksCopy {
  /** The package and version the ranks were copied from. */
  source: string;
  ranks: Ranks;
}

const require = createRequire(import.meta.url);

const FILE = "o200k_base.ranks.v8";
/**
 * Where the build puts the serialized ranks: beside the compiled module, also when this runs
 * from source. Found from this file's own URL: a sandboxed grading worker may not read the
 * lab's package.json, so labPaths() is not for here.
 */
export const RANKS_COPY = fileURLToPath(
  new URL(/\/dist\/checker\/provider\/[^/]+$/.test(import.meta.url) ? `./${FILE}` : `../../dist/checker/provider/${FILE}`, import.meta.url),
);

/** The exact gpt-tokenizer the ranks must come from, so an upgrade never meets an old copy. */
export function ranksSource(): string {
  const { version } = require("gpt-tokenizer/package.json") as { version: string };
  return `gpt-tokenizer@${version}/o200k_base`;
}

function libraryRanks(): Ranks {
  return (require("gpt-tokenizer/bpeRanks/o200k_base") as { default: Ranks }).default;
}

/** The ranks from the serialized copy at `path` when it matches the installed library, else the library's own. */
export function loadRanks(path: string = RANKS_COPY): { ranks: Ranks; fromCopy: boolean } {
  try {
    const copy = deserialize(readFileSync(path)) as RanksCopy;
    if (copy.source === ranksSource() && Array.isArray(copy.ranks)) return { ranks: copy.ranks, fromCopy: true };
  } catch {
    // No copy yet, or one written by another Node: the library's array is the same data.
  }
  return { ranks: libraryRanks(), fromCopy: false };
}

/** Writes the serialized copy of the installed library's ranks (run by the build). */
export function writeRanksCopy(path: string = RANKS_COPY): void {
  const copy: RanksCopy = { source: ranksSource(), ranks: libraryRanks() };
  writeFileSync(path, serialize(copy));
}
