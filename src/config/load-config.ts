import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ConfigError, resolveConfig, type LabConfig } from "./schema.js";

export const CONFIG_FILE = "lab.config.ts";

export interface LoadedConfig {
  config: LabConfig;
  /** The config file that was read, or null when defaults were used. */
  file: string | null;
  /** The folder paths in the config are relative to. */
  root: string;
  /** `config.workspace` as an absolute path. */
  workspaceDir: string;
}

/** Finds `lab.config.ts` in `from` or a parent folder. */
export function findConfigFile(from: string): string | null {
  let dir = resolve(from);
  for (;;) {
    const candidate = join(dir, CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

const DEFINE_CONFIG_URL = new URL("./index.js", import.meta.url).href;

/** Strips the types from the config and evaluates it; the only import it may use is "harness-lab". */
async function evaluate(file: string): Promise<unknown> {
  const source = readFileSync(file, "utf8");
  const { transformSync } = await import("rolldown/utils");
  const out = transformSync(file, source, { lang: "ts" });
  if (out.errors.length > 0) {
    const first = out.errors[0]!;
    throw new ConfigError(`${file}: ${first.message}`);
  }
  const code = out.code.replace(/(from\s*|import\s*\(\s*)(["'])harness-lab\2/g, `$1"${DEFINE_CONFIG_URL}"`);
  const foreign = /from\s*["'](?!file:)([^"']+)["']/.exec(code);
  if (foreign) throw new ConfigError(`${file}: may only import "harness-lab" (found "${foreign[1]}").`);
  const mod = (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)) as { default?: unknown };
  return mod.default;
}

/** Loads and validates the nearest `lab.config.ts`; defaults apply when there is none. */
export async function loadConfig(cwd: string = process.cwd()): Promise<LoadedConfig> {
  const file = findConfigFile(cwd);
  const root = file ? dirname(file) : resolve(cwd);
  let user: unknown;
  if (file) {
    try {
      user = await evaluate(file);
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      throw new ConfigError(`${file}: could not be loaded: ${(err as Error).message}`);
    }
  }
  const config = resolveConfig(user, file ?? CONFIG_FILE);
  return { config, file, root, workspaceDir: resolve(root, config.workspace) };
}

