import { describe, expect, test } from "vitest";
import { buildTable, isBpeTable, NOT_A_TOKEN, rankOf, tokenBytes } from "../../../checker/provider/bpe-table.js";
import { loadTable, TABLE_COPY } from "../../../checker/provider/o200k-table.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const lookUp = (table: ReturnType<typeof buildTable>, text: string) => {
  const key = bytes(`..${text}..`);
  return rankOf(table, key, 2, key.length - 2);
};

describe("a table built from a small vocabulary", () => {
  const tokens = ["a", "b", "ab", "", "abc", "ü", "b"].map(bytes);
  tokens.push(Uint8Array.of(0xc3)); // half of "ü": a token that is not text on its own
  const table = buildTable(tokens);

  test("finds each token's rank from its bytes, anywhere in a buffer", () => {
    expect(["a", "b", "ab", "abc", "ü"].map((t) => lookUp(table, t))).toEqual([0, 1, 2, 4, 5]);
    const half = Uint8Array.of(9, 0xc3, 9);
    expect(rankOf(table, half, 1, 2)).toBe(7);
  });

  test("a repeated token keeps its first rank; an unused rank has no bytes", () => {
    expect(lookUp(table, "b")).toBe(1);
    expect(tokenBytes(table, 3)).toBeUndefined();
    expect(tokenBytes(table, 6)).toEqual(bytes("b"));
  });

  test("anything else is not a token, the empty string included", () => {
    for (const text of ["", "c", "ba", "abcd", "aü"]) expect(lookUp(table, text)).toBe(NOT_A_TOKEN);
    for (const rank of [-1, 8, 1.5, Number.NaN]) expect(tokenBytes(table, rank)).toBeUndefined();
  });

  test("keeps at most 40 % of its slots in use", () => {
    expect(table.slots.length).toBe(32);
    expect(table.slots.filter((slot) => slot !== 0)).toHaveLength(6);
  });
});

test("every o200k_base token is found at its own rank", () => {
  const { table } = loadTable(TABLE_COPY);
  const count = table.starts.length - 1;
  expect(count).toBe(199_998);
  for (let rank = 0; rank < count; rank++) {
    if (rankOf(table, table.bytes, table.starts[rank]!, table.starts[rank + 1]!) !== rank) throw new Error(`rank ${rank} is not found`);
  }
});

test("only a table's own shape passes as one", () => {
  const table = buildTable([bytes("a")]);
  expect(isBpeTable(table)).toBe(true);
  for (const bad of [null, {}, { ...table, slots: new Int32Array(3) }, { ...table, starts: Uint32Array.of(0, 5) }, { ...table, bytes: [97] }]) {
    expect(isBpeTable(bad)).toBe(false);
  }
});
