import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serialize } from "node:v8";
import { encode as libraryEncode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, test } from "vitest";
import { countTokens, decode, encode } from "../../../checker/provider/o200k.js";
import type { BpeTable } from "../../../checker/provider/bpe-table.js";
import { loadTable, TABLE_COPY, tableSource } from "../../../checker/provider/o200k-table.js";
import { tempDir } from "../../support/temp-dir.js";

const SAMPLES = [
  "",
  "Weather in Paris, Tokyo and Lima?",
  'get_weather {"city":"Lima","day":"tomorrow"}',
  "Температура в Софии — 14 °C, ветер 3 м/с. 東京は晴れ。 🌧️🌤️",
  "\u0000\u0001\t\r\n  \uFFFD trailing   ",
  "x".repeat(5000),
  "<|endoftext|> is text here, not a special token",
  "THEY'LL say it's 12345678 o'clock\r\n\r\n    indented /path/to/file.ts",
];

/** Strings from pieces the o200k split pattern treats differently, lone surrogates included. */
function randomTexts(count: number): string[] {
  const pieces = [
    "a",
    "Z",
    " ",
    "  ",
    "\n",
    "\t",
    "é",
    "ß",
    "Ж",
    "щ",
    "東",
    "😀",
    "🌧️",
    "\u0301",
    "1",
    "23",
    "'s",
    "'LL",
    "\ud800",
    "\udfff",
    "<|endoftext|>",
    "ǅ",
    "ـ",
    "्",
    "٣",
    "\r\n",
    "/",
    "!!",
    "€",
    "\u00a0",
    "\u200b",
  ];
  let seed = 7;
  const next = (below: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32) * below;
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next(60)) }, () => pieces[Math.floor(next(pieces.length))]).join(""));
}

/** The lab's own prose and code: lessons, references, solutions. */
function labTexts(): string[] {
  return readdirSync("exercises", { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(md|ts)$/.test(file))
    .map((file) => readFileSync(join("exercises", file), "utf8"));
}

const PLAIN = { disallowedSpecial: new Set<string>() };

describe("o200k_base from the table", () => {
  test("the build wrote the copy, and it is what loads", () => {
    expect(loadTable(TABLE_COPY).fromCopy).toBe(true);
  });

  test("encodes and counts exactly as gpt-tokenizer's own o200k_base (special tokens as plain text)", () => {
    const texts = [...SAMPLES, ...labTexts(), ...randomTexts(2000)];
    expect(texts.length).toBeGreaterThan(2050);
    for (const text of texts) {
      const expected = libraryEncode(text, PLAIN);
      expect(encode(text), JSON.stringify(text.slice(0, 60))).toEqual(expected);
      expect(countTokens(text)).toBe(expected.length);
    }
  });

  test("decodes what it encodes", () => {
    for (const text of SAMPLES) expect(decode(encode(text))).toBe(text);
  });

  test("a character cut in half by truncation is left out, not turned into U+FFFD", () => {
    const tokens = encode("ok 𓀀"); // the hieroglyph is four byte tokens
    expect(tokens).toHaveLength(6);
    for (const cut of [3, 4, 5]) expect(decode(tokens.slice(0, cut))).toBe("ok ");
    expect(decode(tokens)).toBe("ok 𓀀");
  });

  test("an unknown token is an error that names it", () => {
    expect(() => decode([200_000])).toThrow("200000 is not an o200k_base token.");
  });
});

/** The view's bytes as they lie in memory. */
const bytesOf = (view: ArrayBufferView) => Buffer.from(view.buffer, view.byteOffset, view.byteLength);

/**
 * Two tables hold the same arrays: each of the same type and byte for byte the same. toEqual on the
 * whole table walks its millions of elements one by one, seconds of CPU for the same answer.
 */
function expectSameTable(actual: BpeTable, expected: BpeTable): void {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const key of Object.keys(expected) as (keyof BpeTable)[]) {
    expect(actual[key].constructor, key).toBe(expected[key].constructor);
    expect(actual[key].length, key).toBe(expected[key].length);
    expect(bytesOf(actual[key]).equals(bytesOf(expected[key])), `${key}: the same bytes`).toBe(true);
  }
}

describe("a copy that cannot be used is rebuilt from the library", () => {
  const dir = tempDir("table");

  test("missing", () => {
    const loaded = loadTable(join(dir, "missing.v8"));
    expect(loaded.fromCopy).toBe(false);
    expectSameTable(loaded.table, loadTable(TABLE_COPY).table);
  });

  test("not a V8 serialization", () => {
    const file = join(dir, "garbage.v8");
    writeFileSync(file, "not a table");
    expect(loadTable(file).fromCopy).toBe(false);
  });

  test("written from another version of gpt-tokenizer", () => {
    const file = join(dir, "stale.v8");
    writeFileSync(file, serialize({ source: "gpt-tokenizer@3.0.0/o200k_base", table: loadTable(TABLE_COPY).table }));
    expect(loadTable(file).fromCopy).toBe(false);
    expect(tableSource()).toMatch(/^gpt-tokenizer@\d+\.\d+\.\d+\/o200k_base$/);
  });

  test("the right source with the wrong shape", () => {
    const file = join(dir, "shape.v8");
    writeFileSync(file, serialize({ source: tableSource(), table: { bytes: [1, 2], starts: [0, 2], slots: [1] } }));
    expect(loadTable(file).fromCopy).toBe(false);
  });
});
