import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { bundledSdkFile, SDK_BUNDLE_DIR } from "../../../checker/run/sdk-bundle.js";
import { tempDir } from "../../support/temp-dir.js";

const bundle = (rel: string) => import(pathToFileURL(join(SDK_BUNDLE_DIR, rel)).href);
const dir = tempDir("sdk-bundle");

test("the bundle's entries, main and subpaths, share one set of classes", async () => {
  const [main, error, coreError, messages] = await Promise.all([bundle("index.mjs"), bundle("error.mjs"), bundle("core/error.mjs"), bundle("resources/messages/messages.mjs")]);
  expect(main.default.RateLimitError).toBe(coreError.RateLimitError);
  expect(main.APIError).toBe(error.APIError);
  expect(new main.default({ apiKey: "k" }).messages).toBeInstanceOf(messages.Messages);
});

test("the bundle exports what the installed SDK exports", async () => {
  const [bundled, original] = await Promise.all([bundle("index.mjs"), import("@anthropic-ai/sdk")]);
  expect(Object.keys(bundled).sort()).toEqual(Object.keys(original).sort());
});

test("an SDK module file maps to its bundled copy; anything else, or a file the bundle lacks, stays", () => {
  const sdk = join(dir, "node_modules/@anthropic-ai/sdk");
  const copy = join(dir, "bundle");
  mkdirSync(join(copy, "core"), { recursive: true });
  writeFileSync(join(copy, "core/error.mjs"), "");
  expect(bundledSdkFile(join(sdk, "core/error.mjs"), copy)).toBe(join(copy, "core/error.mjs"));
  expect(bundledSdkFile(join(sdk, "core/uploads.mjs"), copy)).toBe(join(sdk, "core/uploads.mjs"));
  expect(bundledSdkFile(join(sdk, "core/error.js"), copy)).toBe(join(sdk, "core/error.js"));
  expect(bundledSdkFile(join(dir, "elsewhere/core/error.mjs"), copy)).toBe(join(dir, "elsewhere/core/error.mjs"));
});
