import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { INK_BUNDLE_DIR } from "../../../src/screen/ink-bundle.js";

// The screens import `#ink`, the bundle built from the installed Ink; tests render with the package.
test("the built Ink bundle offers everything the package exports, under the same names", async () => {
  const bundle = (await import(pathToFileURL(join(INK_BUNDLE_DIR, "index.mjs")).href)) as Record<string, unknown>;
  const ink = (await import("ink")) as Record<string, unknown>;
  expect(Object.keys(bundle).sort()).toEqual(Object.keys(ink).sort());
  for (const name of Object.keys(ink)) expect(typeof bundle[name], name).toBe(typeof ink[name]);
  expect(Object.keys(ink)).toEqual(expect.arrayContaining(["render", "Box", "Text", "Static", "useInput"]));
});
