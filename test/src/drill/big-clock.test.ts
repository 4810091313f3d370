import { expect, test } from "vitest";
import { bigText } from "../../../src/drill/big-clock.js";

test("digits and a colon, three rows of half blocks", () => {
  expect(bigText("10:05")).toEqual([
    "▄█  █▀█ ▄ █▀█ █▀▀", //
    " █  █ █ ▄ █ █ ▀▀█",
    "▀▀▀ ▀▀▀   ▀▀▀ ▀▀▀",
  ]);
  expect(bigText("2:47").map((row) => row.length)).toEqual([13, 13, 13]);
});
