import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadConfig } from "../../../src/config/load-config.js";
import { loadModule } from "../../../src/config/load-module.js";
import { DEFAULT_CONFIG } from "../../../src/config/schema.js";
import { tempDir } from "../../support/temp-dir.js";

function project(config?: string): string {
  const dir = tempDir("config");
  if (config !== undefined) writeFileSync(join(dir, "lab.config.ts"), config);
  return dir;
}

const wrap = (body: string) => `import { defineConfig } from "harness-lab";\nexport default defineConfig(${body});\n`;

describe("loading lab.config.ts", () => {
  test("without a config file the defaults apply, relative to the folder", async () => {
    const dir = project();
    const loaded = await loadConfig(dir);
    expect(loaded.file).toBeNull();
    expect(loaded.config).toEqual(DEFAULT_CONFIG);
    expect(loaded.workspaceDir).toBe(join(dir, "workspace"));
  });

  test("a config with types is read, merged over the defaults, and found from a subfolder", async () => {
    const dir = project(wrap(`{ workspace: "./mine" as string, timeoutSeconds: 3, drill: { targetLines: 30 } }`));
    const sub = join(dir, "a/b");
    mkdirSync(sub, { recursive: true });
    const loaded = await loadConfig(sub);
    expect(loaded.file).toBe(join(dir, "lab.config.ts"));
    expect(loaded.workspaceDir).toBe(join(dir, "mine"));
    expect(loaded.config.timeoutSeconds).toBe(3);
    expect(loaded.config.drill).toEqual({ targetSeconds: null, targetLines: 30 });
  });

  test("a bad value names the field and the file", async () => {
    const dir = project(wrap(`{ timeoutSeconds: "ten" }`));
    await expect(loadConfig(dir)).rejects.toThrow(
      `${join(dir, "lab.config.ts")}: "timeoutSeconds" must be a number of seconds above 0 and at most 3600 (got "ten").`,
    );
  });

  test("a time limit past an hour is refused (1e9 would overflow Node's timer and fail every run after 1 s)", async () => {
    const dir = project(wrap(`{ timeoutSeconds: 1e9 }`));
    await expect(loadConfig(dir)).rejects.toThrow(
      `${join(dir, "lab.config.ts")}: "timeoutSeconds" must be a number of seconds above 0 and at most 3600 (got 1000000000).`,
    );
  });

  test("a config file without a default export is an error, not silently ignored", async () => {
    const dir = project(`export const config = { timeoutSeconds: 3 };\n`);
    await expect(loadConfig(dir)).rejects.toThrow(
      `${join(dir, "lab.config.ts")}: has no default export, so none of its settings would apply; write export default defineConfig({ ... }).`,
    );
  });

  test("a nested bad value names the nested field", async () => {
    const dir = project(wrap(`{ provider: { port: 70000 } }`));
    await expect(loadConfig(dir)).rejects.toThrow(`${join(dir, "lab.config.ts")}: "provider.port" must be a port number from 0 to 65535 (got 70000).`);
  });

  test("an unknown setting is refused with the list of known ones", async () => {
    const dir = project(wrap(`{ workspce: "./w" }`));
    await expect(loadConfig(dir)).rejects.toThrow(
      `${join(dir, "lab.config.ts")}: "workspce" is not a setting; known settings are workspace, editor, timeoutSeconds, poll, typeCheck, drill, provider, grading (got "./w").`,
    );
  });

  test("a syntax error in the config names the file", async () => {
    const dir = project("export default {");
    await expect(loadConfig(dir)).rejects.toThrow(`${join(dir, "lab.config.ts")}:`);
  });

  test("an import other than harness-lab is refused in one sentence", async () => {
    const dir = project(`import x from "left-pad";\nexport default { editor: x };\n`);
    await expect(loadConfig(dir)).rejects.toThrow(`${join(dir, "lab.config.ts")}: may only import "harness-lab" and node: built-ins (found "left-pad").`);
  });
});

describe("a config stripped of its types once is kept by its text", () => {
  test("the same text is read from the cache, and an edited file is stripped again, never served stale", async () => {
    const dir = project();
    const cache = join(dir, "cache");
    const file = join(dir, "lab.config.ts");
    const imports = { "harness-lab": `data:text/javascript,${encodeURIComponent("export const defineConfig = (c) => c;")}` };
    writeFileSync(file, wrap(`{ timeoutSeconds: 3 as number }`));
    expect((await loadModule(file, imports, cache))["default"]).toEqual({ timeoutSeconds: 3 });
    const kept = readdirSync(cache);
    expect(kept).toHaveLength(1);

    // What is kept is what runs: the file is not stripped again while its text is the same.
    writeFileSync(join(cache, kept[0]!), "export default { timeoutSeconds: 4 };");
    expect((await loadModule(file, imports, cache))["default"]).toEqual({ timeoutSeconds: 4 });

    writeFileSync(file, wrap(`{ timeoutSeconds: 5 as number }`));
    expect((await loadModule(file, imports, cache))["default"]).toEqual({ timeoutSeconds: 5 });
    expect(readdirSync(cache)).toHaveLength(2);
  });

  test("a cache folder that cannot be written costs only the time: the config still loads", async () => {
    const dir = project(wrap(`{ timeoutSeconds: 6 }`));
    const blocked = join(dir, "blocked");
    writeFileSync(blocked, "a file where the cache folder would be");
    const loaded = await loadModule(
      join(dir, "lab.config.ts"),
      { "harness-lab": `data:text/javascript,${encodeURIComponent("export const defineConfig = (c) => c;")}` },
      join(blocked, "config"),
    );
    expect(loaded["default"]).toEqual({ timeoutSeconds: 6 });
  });
});
