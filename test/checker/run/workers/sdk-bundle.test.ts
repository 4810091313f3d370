import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { bundledSdkFile, SDK_BUNDLE_DIR } from "../../../../checker/run/workers/sdk-bundle.js";
import { tempDir } from "../../../support/temp-dir.js";

const bundle = (rel: string) => import(pathToFileURL(join(SDK_BUNDLE_DIR, rel)).href);
const dir = tempDir("sdk-bundle");

test("the bundle's entries, main and subpaths, share one set of classes", async () => {
  const [main, error, coreError, messages] = await Promise.all([
    bundle("index.mjs"),
    bundle("error.mjs"),
    bundle("core/error.mjs"),
    bundle("resources/messages/messages.mjs"),
  ]);
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

test("loading the bundle's main entry starts none of the Node built-ins the SDK imports only when used", () => {
  // A fresh process, as a worker: what the SDK imports dynamically (credentials, tools) must stay lazy.
  const script = `const before = new Set(process.moduleLoadList);
await import(${JSON.stringify(pathToFileURL(join(SDK_BUNDLE_DIR, "index.mjs")).href)});
console.log(JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m))));`;
  const loaded: string[] = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }));
  for (const builtin of ["child_process", "readline", "worker_threads"]) expect(loaded).not.toContain(`NativeModule ${builtin}`);
});
