import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../../support/temp-dir.js";
import { fakeIo } from "../screen/streams.js";

const fixtures = resolve(import.meta.dirname, "../../fixtures/lab");

/** The fixture exercises, as commands take them instead of the real ones. */
export const FIXTURE_PATHS = { root: resolve(fixtures, "../../.."), exercises: join(fixtures, "exercises"), solutions: join(fixtures, "solutions") };

/** A temp folder with its own lab.config.ts (workspace ./ws), used as the cwd of a command; removed after the test. */
export function labDir(config = `export default { workspace: "./ws" };\n`) {
  const cwd = tempDir("cmd");
  writeFileSync(join(cwd, "lab.config.ts"), config);
  const workspace = join(cwd, "ws");
  return {
    cwd,
    workspace,
    file: (name = "01-adder.ts") => join(workspace, name),
    labFile: (name: string) => join(workspace, ".lab", name),
    mkLab: () => mkdirSync(join(workspace, ".lab"), { recursive: true }),
    io: (tty = false) => fakeIo({ tty, cwd }),
  };
}

export const out = (io: { stdout: { frames: string[] } }) => io.stdout.frames.join("");
export const err = (io: { stderr: { frames: string[] } }) => io.stderr.frames.join("");
