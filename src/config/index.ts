import type { UserConfig } from "./schema.js";

export type { LabConfig, UserConfig } from "./schema.js";

/** Identity helper that gives `lab.config.ts` type checking and completion. */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}
