import { expect, test } from "vitest";
import { TextMemo } from "../../../checker/provider/text-memo.js";

test("remembers texts until they add up to the limit, then forgets all of them and starts again", () => {
  const memo = new TextMemo<number>(10);
  memo.set("abcd", 1);
  memo.set("efgh", 2);
  expect([memo.get("abcd"), memo.get("efgh")]).toEqual([1, 2]);
  memo.set("ijk", 3); // 11 characters: over the limit
  expect([memo.get("abcd"), memo.get("efgh"), memo.get("ijk")]).toEqual([undefined, undefined, 3]);
  memo.set("lmnopqr", 4); // 3 + 7 = 10: still within
  expect([memo.get("ijk"), memo.get("lmnopqr")]).toEqual([3, 4]);
});

test("counts a fixed cost per entry, so many short texts are bounded too", () => {
  const memo = new TextMemo<number>(100, 40);
  memo.set("a", 1);
  memo.set("b", 2); // 2 × 41 = 82
  expect([memo.get("a"), memo.get("b")]).toEqual([1, 2]);
  memo.set("c", 3); // 123: over the limit
  expect([memo.get("a"), memo.get("b"), memo.get("c")]).toEqual([undefined, undefined, 3]);
});
