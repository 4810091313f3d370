import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, expect, test } from "vitest";
import { main } from "../../../src/cli/main.js";
import { captureIo } from "../../support/io.js";
import { tempDir } from "../../support/temp-dir.js";

let cwd: string;
beforeEach(() => {
  cwd = tempDir("program");
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws" };\n`);
});

test("lab with no command is lab list", async () => {
  const bare = captureIo(cwd);
  const list = captureIo(cwd);
  const codes = [await main(["node", "lab"], bare), await main(["node", "lab", "list"], list)];
  expect(codes[0]).toBe(codes[1]);
  expect(bare.out()).toBe(list.out());
  expect(bare.err()).toBe(list.err());
  expect(bare.out() + bare.err()).not.toBe("");
});

test("a tier other than 1, 2 or 3 is refused by the parser", async () => {
  const io = captureIo(cwd);
  expect(await main(["node", "lab", "show", "1", "--tier", "4"], io)).toBe(2);
  expect(io.err()).toContain("option '--tier <tier>' argument '4' is invalid. a tier is 1, 2 or 3.");
});
