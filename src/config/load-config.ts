import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { packageRoot } from "../../checker/paths.js";
import { loadModule, ModuleLoadError } from "./load-module.js";
import { ConfigError, resolveConfig, type LabConfig } from "./schema.js";

export const CONFIG_FILE = "lab.config.ts";

export const CONFIG_MESSAGES = {
  noDefault: (file: string) => `${file}: has no default export, so none of its settings would apply; write export default defineConfig({ ... }).`,
} as const;

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

/** What "harness-lab" means inside a config: `defineConfig` only, which returns its argument. */
const DEFINE_CONFIG_URL = `data:text/javascript,${encodeURIComponent("export const defineConfig = (config) => config;")}`;

/** Where configs stripped of their types are kept (see loadModule): the lab's own install, gone with its node_modules. */
const configCache = () => join(packageRoot(), "node_modules", ".cache", "harness-lab", "config");

async function evaluate(file: string): Promise<unknown> {
  try {
    return (await loadModule(file, { "harness-lab": DEFINE_CONFIG_URL }, configCache()))["default"];
  } catch (err) {
    throw new ConfigError(err instanceof ModuleLoadError ? err.message : `${file}: could not be loaded: ${(err as Error).message}`);
  }
}

/** Loads and validates the nearest `lab.config.ts`; defaults apply when there is none. */
export async function loadConfig(cwd: string = process.cwd()): Promise<LoadedConfig> {
  const file = findConfigFile(cwd);
  const root = file ? dirname(file) : resolve(cwd);
  let user: unknown;
  if (file) {
    user = await evaluate(file);
    if (user === undefined) throw new ConfigError(CONFIG_MESSAGES.noDefault(file));
  }
  const config = resolveConfig(user, file ?? CONFIG_FILE);
  return { config, file, root, workspaceDir: resolve(root, config.workspace) };
}
