import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeAtomically } from "../progress/write-atomically.js";

export class ModuleLoadError extends Error {
  override name = "ModuleLoadError";
}

/**
 * Evaluates a TypeScript or JavaScript file, never writing beside it: types are stripped, the
 * listed bare imports are pointed at file URLs, and any other import is refused. `cacheDir`:
 * where a stripped text is kept by the hash of what it was stripped from, so the next command
 * that reads the same file does not load the transformer (~23 ms of every `lab` command).
 */
export async function loadModule(file: string, imports: Record<string, string>, cacheDir?: string): Promise<Record<string, unknown>> {
  const source = readFileSync(file, "utf8");
  const lang = file.endsWith(".js") || file.endsWith(".mjs") ? "js" : "ts";
  const code = withImports(file, await stripped(file, source, lang, cacheDir), imports);
  return (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)) as Record<string, unknown>;
}

async function stripped(file: string, source: string, lang: "js" | "ts", cacheDir: string | undefined): Promise<string> {
  const kept = cacheDir && join(cacheDir, `${createHash("sha256").update(`${lang}\0${source}`).digest("hex")}.js`);
  if (kept) {
    try {
      return readFileSync(kept, "utf8");
    } catch {
      // Not stripped yet.
    }
  }
  const { transformSync } = await import("rolldown/utils");
  const out = transformSync(file, source, { lang });
  const firstError = out.errors[0];
  if (firstError) throw new ModuleLoadError(`${file}: ${firstError.message}`);
  if (kept) {
    try {
      writeAtomically(kept, out.code);
    } catch {
      // A folder that cannot be written only means the next command strips it again.
    }
  }
  return out.code;
}

function withImports(file: string, stripped: string, imports: Record<string, string>): string {
  let foreign: string | null = null;
  const code = stripped.replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])([^"']+)\2/g, (whole, lead: string, _q, spec: string) => {
    const target = imports[spec];
    if (target) return `${lead}"${target}"`;
    if (spec.startsWith("node:")) return whole;
    foreign ??= spec;
    return whole;
  });
  if (foreign) {
    const allowed = Object.keys(imports)
      .map((s) => `"${s}"`)
      .join(", ");
    throw new ModuleLoadError(`${file}: may only import ${allowed} and node: built-ins (found "${foreign}").`);
  }
  return code;
}
