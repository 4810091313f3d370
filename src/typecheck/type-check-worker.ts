/**
 * A warm TypeScript language service in a child process: it keeps the SDK's and Node's
 * declarations parsed between checks, so checking the learner's file again after a save
 * costs tens of milliseconds. The process runs at the lowest priority, so when a check and
 * a test run want the CPU at once, the run gets it.
 */
import { join } from "node:path";
import type { TypeErrorReport, TypeCheckReply, TypeCheckRequest } from "./type-check-protocol.js";

const root = process.argv[2]!;
const port = {
  postMessage: (message: unknown) => process.send?.(message),
  on: (event: "message", listener: (message: TypeCheckRequest) => void) => process.on(event, listener),
};
process.on("disconnect", () => process.exit(0));

type Ts = typeof import("typescript");
const ts: Ts | null = await import("typescript").then((m) => (m.default ?? m) as Ts).catch(() => null);

/** As the exercises' own tsconfig, with the lab's node_modules found from any folder. */
function optionsOf(t: Ts): import("typescript").CompilerOptions {
  return {
    target: t.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts"],
    module: t.ModuleKind.ESNext,
    moduleResolution: t.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    esModuleInterop: true,
    skipLibCheck: true,
    types: ["node"],
    typeRoots: [join(root, "node_modules/@types")],
    paths: { "*": [join(root, "node_modules/*"), join(root, "node_modules/@types/*")] },
  };
}

function serve(t: Ts): void {
  const files = new Map<string, { version: number; text: string }>();
  const options = optionsOf(t);
  const host: import("typescript").LanguageServiceHost = {
    getScriptFileNames: () => [...files.keys()],
    getScriptVersion: (f) => String(files.get(f)?.version ?? 0),
    getScriptSnapshot: (f) => {
      const open = files.get(f);
      if (open) return t.ScriptSnapshot.fromString(open.text);
      const text = t.sys.readFile(f);
      return text === undefined ? undefined : t.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => t.getDefaultLibFilePath(o),
    fileExists: (f) => files.has(f) || t.sys.fileExists(f),
    readFile: (f) => files.get(f)?.text ?? t.sys.readFile(f),
    readDirectory: t.sys.readDirectory,
    directoryExists: t.sys.directoryExists,
    getDirectories: t.sys.getDirectories,
  };
  const service = t.createLanguageService(host, t.createDocumentRegistry());
  port.on("message", (request: TypeCheckRequest) => {
    const open = files.get(request.file);
    if (open?.text !== request.text) files.set(request.file, { version: (open?.version ?? 0) + 1, text: request.text });
    let errors: TypeErrorReport[] = [];
    try {
      const diagnostics = [...service.getSyntacticDiagnostics(request.file), ...service.getSemanticDiagnostics(request.file)];
      errors = diagnostics
        .filter((d) => d.category === t.DiagnosticCategory.Error && d.file !== undefined && d.start !== undefined)
        .map((d) => {
          const { line, character } = d.file!.getLineAndCharacterOfPosition(d.start!);
          return { line: line + 1, column: character + 1, code: d.code, message: t.flattenDiagnosticMessageText(d.messageText, " ") };
        });
    } catch (err) {
      errors = [];
      void err; // the checker itself failed: say nothing rather than something wrong
    }
    port.postMessage({ id: request.id, errors } satisfies TypeCheckReply);
  });
  port.postMessage({ ready: true });
}

if (ts) serve(ts);
else port.postMessage({ ready: false });
