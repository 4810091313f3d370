import { readFileSync } from "node:fs";

export class ModuleLoadError extends Error {
  override name = "ModuleLoadError";
}

/**
 * Evaluates a TypeScript or JavaScript file without writing anything to disk: types are
 * stripped, the listed bare imports are pointed at file URLs, and any other import is refused.
 */
export async function loadModule(file: string, imports: Record<string, string>): Promise<Record<string, unknown>> {
  const source = readFileSync(file, "utf8");
  const { transformSync } = await import("rolldown/utils");
  const out = transformSync(file, source, { lang: file.endsWith(".js") || file.endsWith(".mjs") ? "js" : "ts" });
  const firstError = out.errors[0];
  if (firstError) throw new ModuleLoadError(`${file}: ${firstError.message}`);
  let foreign: string | null = null;
  const code = out.code.replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])([^"']+)\2/g, (whole, lead: string, _q, spec: string) => {
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
  return (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)) as Record<string, unknown>;
}
