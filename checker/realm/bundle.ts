/**
 * The learner's file and the files beside it that it imports, bundled into one module for
 * the learner's realm (host.ts), behind the import wall. Bundling here, in the lab's own
 * process, means the walled worker needs no read access to the learner's folder, and the
 * realm loads one data: module rather than paying a loader-hook thread per realm.
 */
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ImportRefused, judgeResolved, judgeSpecifier, realOrSame, SDK_SPECIFIER } from "../run/walls/import-wall.js";
import { bundledSdkFile } from "../run/workers/sdk-bundle.js";

/** The SDK the learner's bundle imports: the lab's bundled copy of it (see sdk-bundle.ts). */
export const learnerSdkUrl = (spec = "@anthropic-ai/sdk"): string => pathToFileURL(bundledSdkFile(fileURLToPath(import.meta.resolve(spec)))).href;

/** `implFile` as one ES module; `isTestFile` says which files are hidden tests (never loadable). */
export async function bundleLearner(implFile: string, isTestFile: (path: string) => boolean): Promise<string> {
  const { build } = await import("rolldown");
  const root = realOrSame(dirname(implFile));
  const { output } = await build({
    input: implFile,
    platform: "node",
    logLevel: "silent",
    write: false,
    output: { format: "esm", codeSplitting: false },
    plugins: [
      {
        name: "lab-import-wall",
        async resolveId(id, importer) {
          if (!importer) return null;
          if (SDK_SPECIFIER.test(id)) return { id: learnerSdkUrl(id), external: true };
          const verdict = judgeSpecifier(id, importer, root, () => false);
          if (verdict.kind === "refuse") throw new ImportRefused(id, verdict.reason);
          if (verdict.kind === "builtin") return { id, external: true };
          const resolved = await this.resolve(id, importer, { skipSelf: true });
          if (!resolved || resolved.external) throw new ImportRefused(id, "missing");
          const reason = judgeResolved(resolved.id, root, isTestFile);
          if (reason) throw new ImportRefused(id, reason);
          return resolved;
        },
        transform(code) {
          if (code.includes("import.meta.glob")) throw new ImportRefused("import.meta.glob", "glob");
          return null;
        },
      },
    ],
  });
  return output[0]!.code;
}
