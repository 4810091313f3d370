import { dirname, isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { ImportRefused, isInside, judgeResolved, judgeSpecifier, realOrSame, SDK_SPECIFIER } from "./walls/import-wall.js";
import type { Binding } from "./binding.js";
import { bundledSdkFile } from "./workers/sdk-bundle.js";

const cleanPath = (id: string) => realOrSame(id.split("?")[0]!);

/**
 * Resolves what hidden tests import: "lab:impl" to the file bound to the importing test,
 * "lab:test" to the compiled test helpers, and the SDK (from any file, wherever it lives)
 * to the lab's own bundled copy (see sdk-bundle.ts), the same one the test helpers load, so
 * learner code, test and helpers share one set of error classes. What a learner file itself
 * imports passes the wall in import-wall.ts first.
 */
export function bindingPlugin(bindings: Map<string, Binding>, labTestFile: string, labCode: string[]): Plugin {
  const labDirs = labCode.map(realOrSame);
  const isTestFile = (path: string) => bindings.has(path) || [...bindings.values()].some((b) => realOrSame(b.exercise.hiddenTest) === path);
  /** The folder of the learner file `id` belongs to, if it is learner code at all. */
  const learnerRoot = (id: string | undefined): string | null => {
    if (!id) return null;
    const path = cleanPath(id);
    if (bindings.has(path)) return null;
    let best: string | null = null;
    for (const binding of bindings.values()) {
      const root = realOrSame(dirname(binding.implFile));
      if (isInside(path, root) && (!best || root.length > best.length)) best = root;
    }
    return best;
  };
  const labResolve = (id: string): string | null => {
    if (id === "lab:test") return labTestFile;
    if (SDK_SPECIFIER.test(id)) return bundledSdkFile(fileURLToPath(import.meta.resolve(id)));
    return null;
  };
  return {
    name: "lab-binding",
    enforce: "pre",
    async resolveId(id, importer) {
      if (id === "lab:impl") {
        const binding = importer ? bindings.get(cleanPath(importer)) : undefined;
        if (!binding) throw new Error(`"lab:impl" is only available to a hidden test during a run (imported from ${importer ?? "nowhere"}).`);
        return binding.implFile;
      }
      const root = learnerRoot(importer);
      if (root === null) return labResolve(id);
      const verdict = judgeSpecifier(id, importer!, root, (spec) => labResolve(spec) !== null);
      if (verdict.kind === "refuse") throw new ImportRefused(id, verdict.reason);
      if (verdict.kind === "pass") return labResolve(id);
      if (verdict.kind === "builtin") return null;
      const resolved = await this.resolve(id, importer, { skipSelf: true });
      if (!resolved) return null;
      const reason = resolved.external ? "package" : judgeResolved(resolved.id, root, isTestFile);
      if (reason) throw new ImportRefused(id, reason);
      return resolved;
    },
    // Some loads never pass resolveId with their importer (vite's module runner resolves a
    // dynamic import's absolute path on its own), so nothing is read that is not a hidden
    // test, a learner's folder or the lab's compiled code and packages.
    load(id) {
      if (bindings.size === 0 || id.startsWith("\0")) return null;
      // An import nothing resolved: vite would read it relative to the lab's working folder.
      if (!isAbsolute(id.split("?")[0]!)) throw new ImportRefused(id, "missing");
      const path = cleanPath(id);
      if (bindings.has(path)) return null;
      if (learnerRoot(id) !== null) {
        if (/[?#]/.test(id)) throw new ImportRefused(id, "query");
        if (isTestFile(path)) throw new ImportRefused(id, "test");
        return null;
      }
      if (labDirs.some((dir) => isInside(path, dir))) return null;
      throw new ImportRefused(id, /[?#]/.test(id) ? "query" : "outside");
    },
    transform(code, id) {
      if (learnerRoot(id) !== null && code.includes("import.meta.glob")) throw new ImportRefused("import.meta.glob", "glob");
      return null;
    },
  };
}
