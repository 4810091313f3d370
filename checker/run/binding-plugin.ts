import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { isAbsolute } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Plugin } from "vite";
import { supportModule } from "../model/exercises.js";
import { bundleLearner, type LearnerBundle } from "../realm/bundle.js";
import { ImportRefused, isInside, realOrSame, SDK_SPECIFIER } from "./walls/import-wall.js";
import type { Binding } from "./binding.js";
import { bundledSdkFile } from "./workers/sdk-bundle.js";

const cleanPath = (id: string) => realOrSame(id.split("?")[0]!);

export const BINDING_MESSAGES = {
  outsideRun: (specifier: string, importer: string | undefined) =>
    `"${specifier}" is only available to a hidden test during a run (imported from ${importer ?? "nowhere"}).`,
  noSupport: (exercise: string, file: string) =>
    `"lab:support" is exercise ${exercise}'s support/, compiled to ${file}, which is not there: run npm run build.`,
} as const;

/**
 * The module id "lab:impl" resolves to for a hidden test bound to a learner's file (virtual: it
 * exists only here). It names both files, so no cache of vite's or vitest's can serve one
 * learner's file for another's; the hidden test, whose transform names it, is transformed again
 * when its binding moves, and the module itself before every run (see Runner.executeOnce).
 */
const IMPL_PREFIX = "\0lab-impl:";
export const implModuleId = (binding: Pick<Binding, "testFile" | "implFile">) =>
  `${IMPL_PREFIX}${createHash("sha256").update(binding.implFile).digest("hex").slice(0, 16)}:${binding.testFile}`;
const boundTestOf = (id: string) => id.slice(id.indexOf(":", IMPL_PREFIX.length) + 1);

/**
 * The module a hidden test gets for "lab:impl": the learner's exports, as handles into its
 * realm, opened through the trusted side's half at `labImplFile` (see realm/lab-impl.ts).
 */
export function implModule(bundle: LearnerBundle, labImplFile: string): string {
  const names = bundle.exports.filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
  return [
    `import { afterAll, afterEach, aroundEach } from "vitest";`,
    `import { openLabImpl } from ${JSON.stringify(pathToFileURL(labImplFile).href)};`,
    `const impl = await openLabImpl(${JSON.stringify({ code: bundle.code, map: bundle.map, sdkUrl: bundle.sdkUrl, root: bundle.root })}, { afterAll, afterEach, aroundEach });`,
    ...names.map((name, i) => `const e${i} = impl[${JSON.stringify(name)}];`),
    `export { ${names.map((name, i) => `e${i} as ${name}`).join(", ")} };`,
  ].join("\n");
}

/** Whether `path` is a hidden test of a run in `bindings` (never loadable by learner code). */
const hiddenTestOf = (bindings: Map<string, Binding>) => (path: string) =>
  bindings.has(path) || [...bindings.values()].some((b) => realOrSame(b.exercise.hiddenTest) === path);

/**
 * The learner's file of `binding`, bundled once per run: the runner starts it as the run
 * starts, so it is ready, or nearly, when the worker has loaded the hidden test and asks.
 */
export function bundleOf(bindings: Map<string, Binding>, binding: Binding): Promise<LearnerBundle> {
  if (!binding.bundle) {
    binding.bundle = bundleLearner(binding.implFile, hiddenTestOf(bindings));
    // Its failure is the run's when the worker asks; a run stopped before that must not leave it unhandled.
    binding.bundle.catch(() => undefined);
  }
  return binding.bundle;
}

/**
 * Resolves what hidden tests import: "lab:impl" to a module of its own per test file, which
 * bundles the file bound for this run (the learner's, behind the import wall in
 * realm/bundle.ts) and loads it in the learner's realm, never in the test's; "lab:test" to
 * the compiled test helpers every exercise may use; "lab:support" to the compiled support/ of
 * the test's own exercise (trusted code, like lab:test); and the SDK to the lab's own bundled copy (see sdk-bundle.ts).
 * Learner code never passes through vite: nothing here loads a learner's file as a module.
 */
export function bindingPlugin(bindings: Map<string, Binding>, lab: { test: string; impl: string; code: string[] }): Plugin {
  const labTestFile = lab.test;
  const labCode = lab.code;
  const labDirs = labCode.map(realOrSame);
  return {
    name: "lab-binding",
    enforce: "pre",
    resolveId(id, importer) {
      if (id === "lab:impl" || id === "lab:support") {
        const testFile = importer ? cleanPath(importer) : undefined;
        const binding = testFile ? bindings.get(testFile) : undefined;
        if (!binding) throw new Error(BINDING_MESSAGES.outsideRun(id, importer));
        if (id === "lab:impl") return implModuleId(binding);
        const support = supportModule(binding.exercise);
        if (!existsSync(support)) throw new Error(BINDING_MESSAGES.noSupport(binding.exercise.id, support));
        return support;
      }
      if (id === "lab:test") return labTestFile;
      if (SDK_SPECIFIER.test(id)) return bundledSdkFile(fileURLToPath(import.meta.resolve(id)));
      return null;
    },
    async load(id) {
      if (id.startsWith(IMPL_PREFIX)) {
        const binding = bindings.get(boundTestOf(id));
        if (!binding || implModuleId(binding) !== id) throw new Error(`No run is bound to ${boundTestOf(id)}.`);
        return implModule(await bundleOf(bindings, binding), lab.impl);
      }
      if (bindings.size === 0 || id.startsWith("\0")) return null;
      // Nothing is read that is not a hidden test or the lab's compiled code and packages.
      if (!isAbsolute(id.split("?")[0]!)) throw new ImportRefused(id, "missing");
      const path = cleanPath(id);
      if (bindings.has(path) || labDirs.some((dir) => isInside(path, dir))) return null;
      throw new ImportRefused(id, /[?#]/.test(id) ? "query" : "outside");
    },
  };
}
