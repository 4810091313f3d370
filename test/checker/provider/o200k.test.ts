import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serialize } from "node:v8";
import { encode as libraryEncode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, describe, expect, test } from "vitest";
import { countTokens, decode, encode } from "../../../checker/provider/o200k.js";
import { loadRanks, RANKS_COPY, ranksSource } from "../../../checker/provider/o200k-ranks.js";

const dir = mkdtempSync(join(tmpdir(), "lab-ranks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TEXTS = [
  "",
  "Weather in Paris, Tokyo and Lima?",
  "get_weather {\"city\":\"Lima\",\"day\":\"tomorrow\"}",
  "Температура в Софии — 14 °C, ветер 3 м/с. 東京は晴れ。 🌧️🌤️",
  "\u0000\u0001\t\r\n  \uFFFD trailing   ",
  "x".repeat(5000),
  "<|endoftext|> is text here, not a special token",
];

describe("the encoding built from the serialized ranks", () => {
  test("the build wrote the copy, and it is what loads", () => {
    expect(loadRanks(RANKS_COPY).fromCopy).toBe(true);
  });

  test("encodes, counts and decodes exactly as gpt-tokenizer's own o200k_base (special tokens as plain text)", () => {
    const plain = { disallowedSpecial: new Set<string>() };
    for (const text of TEXTS) {
      expect(encode(text)).toEqual(libraryEncode(text, plain));
      expect(countTokens(text)).toBe(libraryEncode(text, plain).length);
      expect(decode(encode(text))).toBe(text);
    }
  });
});

describe("a copy that cannot be used falls back to the library's ranks", () => {
  test("missing", () => {
    const loaded = loadRanks(join(dir, "missing.v8"));
    expect(loaded.fromCopy).toBe(false);
    expect(loaded.ranks).toEqual(loadRanks(RANKS_COPY).ranks);
  });

  test("not a V8 serialization", () => {
    const file = join(dir, "garbage.v8");
    writeFileSync(file, "not ranks");
    expect(loadRanks(file).fromCopy).toBe(false);
  });

  test("written from another version of gpt-tokenizer", () => {
    const file = join(dir, "stale.v8");
    writeFileSync(file, serialize({ source: "gpt-tokenizer@3.0.0/o200k_base", ranks: ["a"] }));
    expect(loadRanks(file).fromCopy).toBe(false);
    expect(ranksSource()).toMatch(/^gpt-tokenizer@\d+\.\d+\.\d+\/o200k_base$/);
  });
});
