/**
 * Ink as the lab's screens load it: the unmodified package, bundled at build time. Ink's ~200
 * module files (its dependencies' CommonJS ones lexed for their exports) took ~390 ms to
 * import, on the path of `lab start`'s first frame; the bundle loads in about a third of that.
 * React stays outside, so the screens' components and the bundled renderer share one React.
 * Source imports it as `#ink` (package.json "imports"); tests keep the package itself, which
 * ink-testing-library renders with.
 */
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { labPaths } from "../../checker/paths.js";

const require = createRequire(import.meta.url);

/** Where `#ink` points (package.json): the bundle's entry is index.mjs here (in dist, whether this runs from dist or source). */
export const INK_BUNDLE_DIR = join(labPaths().dist, "vendor/ink");

/** Builds the bundle from the installed Ink into `outDir` (run by `npm run build`). */
export async function bundleInk(outDir = INK_BUNDLE_DIR): Promise<void> {
  const { build } = await import("rolldown");
  rmSync(outDir, { recursive: true, force: true });
  await build({
    input: { index: require.resolve("ink") },
    platform: "node",
    logLevel: "silent",
    // react-devtools-core: an optional peer, imported only under DEV=true (then it must be installed, as with Ink itself).
    external: [/^react(\/|$)/, "react-devtools-core"],
    output: { dir: outDir, format: "esm", entryFileNames: "[name].mjs", chunkFileNames: "_chunks/[name]-[hash].mjs" },
  });
}
