import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import type { Binding } from "./runner.js";
import { bundledSdkFile } from "./sdk-bundle.js";

const SDK = /^@anthropic-ai\/sdk(\/.*)?$/;

function cleanPath(id: string): string {
  const path = id.split("?")[0]!;
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Resolves what hidden tests import: "lab:impl" to the file bound to the importing test,
 * "lab:test" to the compiled test helpers, and the SDK (from any file, wherever it lives)
 * to the lab's own bundled copy (see sdk-bundle.ts), the same one the test helpers load, so
 * learner code, test and helpers share one set of error classes.
 */
export function bindingPlugin(bindings: Map<string, Binding>, labTestFile: string): Plugin {
  return {
    name: "lab-binding",
    enforce: "pre",
    resolveId(id, importer) {
      if (id === "lab:impl") {
        const binding = importer ? bindings.get(cleanPath(importer)) : undefined;
        if (!binding) throw new Error(`"lab:impl" is only available to a hidden test during a run (imported from ${importer ?? "nowhere"}).`);
        return binding.implFile;
      }
      if (id === "lab:test") return labTestFile;
      if (SDK.test(id)) return bundledSdkFile(fileURLToPath(import.meta.resolve(id)));
      return null;
    },
  };
}
