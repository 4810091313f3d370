/**
 * o200k_base's 200,000 tokens as a BpeTable. gpt-tokenizer ships them as a 2.4 MB JavaScript
 * array literal (~140 ms to parse) from which its encoder builds a Map (~100 ms more), in every
 * worker process, one per graded pair. The build writes the finished table V8-serialized beside
 * this file, and that loads in a few milliseconds. A missing, stale or unreadable copy is rebuilt
 * from the library's array: the same data, slowly.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { deserialize, serialize } from "node:v8";
import { buildTable, isBpeTable, type BpeTable } from "./bpe-table.js";

interface TableCopy {
  /** The package and version the tokens were copied from. */
  source: string;
  table: BpeTable;
}

const require = createRequire(import.meta.url);

const FILE = "o200k_base.bpe.v8";
/**
 * Where the build puts the copy: beside the compiled module, also when this runs from source.
 * Found from this file's own URL: a sandboxed grading worker may not read the lab's
 * package.json, so labPaths() is not for here.
 */
export const TABLE_COPY = fileURLToPath(
  new URL(/\/dist\/checker\/provider\/[^/]+$/.test(import.meta.url) ? `./${FILE}` : `../../dist/checker/provider/${FILE}`, import.meta.url),
);

/** The exact gpt-tokenizer the tokens must come from, so an upgrade never meets an old copy. */
export function tableSource(): string {
  const { version } = require("gpt-tokenizer/package.json") as { version: string };
  return `gpt-tokenizer@${version}/o200k_base`;
}

/** Each rank's bytes, from the library: a string token as UTF-8, the others as the bytes given. */
function libraryTable(): BpeTable {
  const ranks = (require("gpt-tokenizer/bpeRanks/o200k_base") as { default: Array<string | number[] | undefined> }).default;
  const utf8 = new TextEncoder();
  const tokens = Array.from(ranks, (token) => (typeof token === "string" ? utf8.encode(token) : Uint8Array.from(token ?? [])));
  return buildTable(tokens);
}

/** The table from the copy at `path` when it matches the installed library, else built from the library. */
export function loadTable(path: string = TABLE_COPY): { table: BpeTable; fromCopy: boolean } {
  try {
    const copy = deserialize(readFileSync(path)) as Partial<TableCopy> | null;
    if (copy?.source === tableSource() && isBpeTable(copy.table)) return { table: copy.table, fromCopy: true };
  } catch {
    // No copy yet, or one no longer readable: the library has the same data.
  }
  return { table: libraryTable(), fromCopy: false };
}

/** Writes the copy of the installed library's table (run by the build). */
export function writeTableCopy(path: string = TABLE_COPY): void {
  const copy: TableCopy = { source: tableSource(), table: libraryTable() };
  writeFileSync(path, serialize(copy));
}
