import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished, TestRunner } from "vitest";

const remove = (dir: string) => rmSync(dir, { recursive: true, force: true });
const forTheFile: string[] = [];

/**
 * Removes the folders made outside a test; after each test file (test/support/file-hooks.ts, a
 * setup file: a hook registered here, at load, would be the first file's only, where files
 * share a worker and this module with it).
 */
export const removeFileTempDirs = () => forTheFile.splice(0).forEach(remove);

/**
 * A new folder lab-<prefix>-XXXXXX in the system temp folder, removed pass or fail: when the
 * test (or its beforeEach) that made it finishes, or, made outside a test (at load, in
 * beforeAll), when the file's tests are done.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `lab-${prefix}-`));
  if (TestRunner.getCurrentTest()) onTestFinished(() => remove(dir));
  else forTheFile.push(dir);
  return dir;
}
