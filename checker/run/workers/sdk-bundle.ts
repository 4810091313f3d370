/**
 * The SDK as worker processes load it: the unmodified @anthropic-ai/sdk, bundled at build
 * time. Loading its ~270 module files cost each worker ~180 ms of CPU (a graded pair is one
 * worker, so grading paid it per pair); the bundle loads in a fraction of that.
 *
 * Every public `.mjs` file of the package is an entry at its own relative path, and every
 * module the main entry needs lives in one shared chunk, so `@anthropic-ai/sdk` and a
 * subpath like `@anthropic-ai/sdk/core/error` still share one `APIError` class. Worker-side
 * lab code reaches the bundle through the package import `#anthropic-sdk` under the
 * `lab-bundled-sdk` condition; learner code and hidden tests through the binding plugin.
 */
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { labPaths } from "../../paths.js";

/** The Node condition under which `#anthropic-sdk` is the bundle (set on every worker). */
export const BUNDLED_SDK_CONDITION = "lab-bundled-sdk";

const SDK_PACKAGE = join("node_modules", "@anthropic-ai", "sdk");
/** Where the bundle's entries mirror the package's files (in dist, whether this runs from dist or source). */
export const SDK_BUNDLE_DIR = join(labPaths().dist, "checker/vendor/anthropic-sdk");

/** Files the package does not export, so nothing outside it can import them. */
const PRIVATE = /^lib[\\/]internal[\\/]/;
/** Optional peers the SDK's helpers import; not installed, so left as imports. */
const OPTIONAL_PEERS = [/^zod(\/|$)/, /^@modelcontextprotocol\//];

/** The bundled copy of an SDK module file, or the file itself when the bundle has no such entry. */
export function bundledSdkFile(file: string, bundleDir = SDK_BUNDLE_DIR): string {
  const at = file.lastIndexOf(`${sep}${SDK_PACKAGE}${sep}`);
  if (at < 0 || !file.endsWith(".mjs")) return file;
  const copy = join(bundleDir, file.slice(at + SDK_PACKAGE.length + 2));
  return existsSync(copy) ? copy : file;
}

function publicModules(root: string): Record<string, string> {
  const input: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".mjs")) {
        const rel = relative(root, path);
        if (!PRIVATE.test(rel)) input[rel.slice(0, -".mjs".length)] = path;
      }
    }
  };
  walk(root);
  return input;
}

/** What both passes over the package share. */
const COMMON = { external: OPTIONAL_PEERS, platform: "node" as const, logLevel: "silent" as const };

/**
 * The modules the main entry imports statically, all of which go to the one shared chunk.
 * What it imports only dynamically (the Node built-ins behind credentials and tools: child
 * processes, readline, worker threads) stays in chunks of its own, loaded when used.
 */
async function staticCore(sdkRoot: string): Promise<Set<string>> {
  const { build } = await import("rolldown");
  const { output } = await build({ ...COMMON, input: { index: join(sdkRoot, "index.mjs") }, write: false });
  const chunks = new Map(output.flatMap((file) => (file.type === "chunk" ? [[file.fileName, file] as const] : [])));
  const core = new Set<string>();
  const seen = new Set<string>();
  const reach = (name: string) => {
    const chunk = chunks.get(name);
    if (!chunk || seen.has(name)) return;
    seen.add(name);
    chunk.moduleIds.forEach((id) => core.add(id));
    chunk.imports.forEach(reach);
  };
  for (const chunk of chunks.values()) if (chunk.isEntry) reach(chunk.fileName);
  return core;
}

/** Builds the bundle from the installed SDK into `outDir` (run by `npm run build`). */
export async function bundleSdk(sdkRoot: string, outDir = SDK_BUNDLE_DIR): Promise<{ entries: number }> {
  const { build } = await import("rolldown");
  const core = await staticCore(sdkRoot);
  const input = publicModules(sdkRoot);
  rmSync(outDir, { recursive: true, force: true });
  await build({
    ...COMMON,
    input,
    preserveEntrySignatures: "strict",
    output: {
      dir: outDir,
      format: "esm",
      entryFileNames: "[name].mjs",
      chunkFileNames: "_chunks/[name]-[hash].mjs",
      codeSplitting: { groups: [{ name: "sdk", test: (id: string) => core.has(id) }] },
    },
  });
  return { entries: Object.keys(input).length };
}

/** The installed SDK's package folder, as Node resolves it from here. */
export function installedSdkRoot(): string {
  return dirname(fileURLToPath(import.meta.resolve("@anthropic-ai/sdk")));
}
