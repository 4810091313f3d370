/**
 * The learner's file and the files beside it that it imports, bundled into one module for
 * the learner's realm (host.ts), behind the import wall. Bundling is the realm's loader: it
 * runs here, in the lab's own process, before any learner code runs, so the walled worker
 * needs no read access to the learner's folder, and the realm loads one module rather than
 * paying a loader-hook thread (50–120 ms) per realm.
 */
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ImportRefused, judgeResolved, judgeSpecifier, realOrSame, SDK_SPECIFIER } from "../run/walls/import-wall.js";
import { bundledSdkFile } from "../run/workers/sdk-bundle.js";
import { runtimeReachEdits } from "./runtime-reach.js";

/** The SDK the learner's bundle imports: the lab's bundled copy of it (see sdk-bundle.ts). */
export const learnerSdkUrl = (spec = "@anthropic-ai/sdk"): string => pathToFileURL(bundledSdkFile(fileURLToPath(import.meta.resolve(spec)))).href;

export interface LearnerBundle {
  /** One ES module: the learner's code and its sibling files; the SDK and Node's built-ins stay imports. */
  code: string;
  /** Its source map (v3, JSON), whose sources are the learner's files by absolute path. */
  map: string;
  /** The names the learner's file exports. */
  exports: string[];
  /** The SDK the bundle imports, for the realm to build the SDK's clients and errors from. */
  sdkUrl: string;
  /** The learner's folder, as the import wall judges it: what a computed import may reach at run time. */
  root: string;
}

/** Where a learner's file fails to parse; its message is the sentence a learner reads. */
export class LearnerSyntaxError extends Error {
  override name = "LearnerSyntaxError";
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super(`${SYNTAX_MARK}${file}:${line}:${column}: ${detail}`);
  }
}

/** Where a syntax error's sentence starts in whatever error carried it (see checker/run/outcome.ts). */
export const SYNTAX_MARK = "Syntax error in ";

const ANSI = /\u001b\[[0-9;]*m/g;

type RolldownProblem = { code?: string; message?: string; id?: string; loc?: { line: number; column: number; file?: string } };

/** The first parse error of a failed build as a LearnerSyntaxError; any other failure as it was. */
function asSyntaxError(error: unknown, implFile: string): unknown {
  const problems = (error as { errors?: RolldownProblem[] }).errors ?? [];
  const cause = problems.find((p) => p.code === "PARSE_ERROR");
  if (!cause?.loc) return error;
  const firstLine = (cause.message ?? "").replace(ANSI, "").split("\n")[0]!;
  const detail = firstLine.replace(/^\[[A-Z_]+\]\s*/, "").trim() || "it does not parse";
  return new LearnerSyntaxError(cause.loc.file ?? cause.id ?? implFile, cause.loc.line, cause.loc.column + 1, detail);
}

/** `implFile` as one ES module; `isTestFile` says which files are hidden tests (never loadable). */
export async function bundleLearner(implFile: string, isTestFile: (path: string) => boolean): Promise<LearnerBundle> {
  const { build, RolldownMagicString } = await import("rolldown");
  const { parseAst } = await import("rolldown/parseAst");
  const root = realOrSame(dirname(implFile));
  try {
    const { output } = await build({
      input: implFile,
      platform: "node",
      // The learner's code as written: a loop with no effect, an unused statement, run as they are.
      treeshake: false,
      logLevel: "silent",
      write: false,
      output: {
        format: "esm",
        codeSplitting: false,
        sourcemap: true,
        sourcemapPathTransform: (source, mapFile) => fileURLToPath(new URL(source, pathToFileURL(mapFile))),
      },
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
          transform(code, id) {
            if (code.includes("import.meta.glob")) throw new ImportRefused("import.meta.glob", "glob");
            const edits = runtimeReachEdits(code, id, (source) => parseAst(source, { lang: /\.[mc]?tsx?$/.test(id) ? "ts" : "js", sourceType: "module" }));
            if (edits.length === 0) return null;
            // Through the bundler's own string editor, so the source map still leads to the learner's lines.
            const edited = new RolldownMagicString(code);
            for (const edit of edits) edited.overwrite(edit.start, edit.end, edit.text);
            return { code: edited };
          },
        },
      ],
    });
    const chunk = output[0]!;
    return { code: chunk.code, map: chunk.map ? chunk.map.toString() : "", exports: chunk.exports, sdkUrl: learnerSdkUrl(), root };
  } catch (error) {
    throw asSyntaxError(error, implFile);
  }
}
