/**
 * Exercise fixtures: files a hidden test needs but a walled worker could not make. Node 20's
 * permission model refuses fs.symlink to any process that may not read and write everything,
 * so a test on real symlinks cannot plant its own under the walls. The fixtures live in git
 * under exercises/NN-slug/fixtures/ (links as links, pointing only inside that folder), and
 * every run gets a fresh copy it may write in: a walled worker's is laid down by the lab in
 * the worker's TMPDIR before the run (named by LAB_FIXTURES); an unwalled worker, which may
 * make links, copies the folder itself.
 */
import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { labPaths } from "../paths.js";
import { isInside } from "../run/walls/import-wall.js";

/** The variable that tells a walled worker where the lab laid its run's fixtures. */
export const FIXTURES_ENV = "LAB_FIXTURES";

export const FIXTURE_ERRORS = {
  linkOutside: (link: string, target: string) =>
    `${link} points at ${target}, outside its fixtures folder: a link out of the folder would be a way through the workers' walls, so fixtures may link only inside it.`,
  notLaid: (id: string, laid: string) => `The lab laid no fixtures for ${id} in ${laid}: this worker may not make them itself (it runs walled off).`,
  none: (id: string, folder: string) => `Exercise ${id} has no fixtures: there is no folder ${folder}.`,
} as const;

/** Where the lab lays fixtures inside a walled worker's TMPDIR. */
export const fixturesIn = (tmp: string) => join(tmp, "lab-fixtures");

/** Throws unless every link under `root` is relative and resolves inside `root`. */
function checkLinks(root: string, dir = root): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) checkLinks(root, path);
    if (!entry.isSymbolicLink()) continue;
    const target = readlinkSync(path);
    const resolved = resolve(dirname(path), target);
    // The folder itself counts as outside: a link to it would only loop.
    if (isAbsolute(target) || relative(root, resolved) === "" || !isInside(resolved, root))
      throw new Error(FIXTURE_ERRORS.linkOutside(relative(root, path), target));
  }
}

/**
 * Copies `exerciseDir`/fixtures to `into`/`id`, links kept as the same relative links.
 * Returns the copy, or null when the exercise has no fixtures. Run it where links may be made.
 */
export function layFixtures(exerciseDir: string, id: string, into: string): string | null {
  const source = join(exerciseDir, "fixtures");
  if (!existsSync(source) || !lstatSync(source).isDirectory()) return null;
  checkLinks(source);
  const copy = join(into, id);
  rmSync(copy, { recursive: true, force: true });
  cpSync(source, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}

/**
 * Every path under `exerciseDir`/fixtures with what it holds (a link: where it points), sorted,
 * as one text: what a grader hashes beside the hidden test. Empty when there are no fixtures.
 */
export function fixturesText(exerciseDir: string): string {
  const source = join(exerciseDir, "fixtures");
  if (!existsSync(source)) return "";
  const lines: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      const rel = relative(source, path);
      if (entry.isSymbolicLink()) lines.push(`${rel} -> ${readlinkSync(path)}`);
      else if (entry.isDirectory()) walk(path);
      else lines.push(`${rel}: ${JSON.stringify(readFileSync(path, "utf8"))}`);
    }
  };
  walk(source);
  return lines.join("\n");
}

/**
 * A copy of exercise `id`'s fixtures folder for this run, writable, its links real links.
 * Walled, it is the one the lab laid down for the run (every call gets it: tests that share
 * it use different parts of it); unwalled, a fresh copy in a new folder inside `into`, which
 * the caller removes (its own temp folder).
 */
export function exerciseFixtures(id: string, into: string): string {
  const laid = process.env[FIXTURES_ENV];
  if (laid !== undefined) {
    const dir = join(laid, id);
    if (!existsSync(dir)) throw new Error(FIXTURE_ERRORS.notLaid(id, laid));
    return dir;
  }
  const exerciseDir = join(labPaths().exercises, id);
  const dir = layFixtures(exerciseDir, id, mkdtempSync(join(into, "fixtures-")));
  if (!dir) throw new Error(FIXTURE_ERRORS.none(id, join(exerciseDir, "fixtures")));
  return dir;
}
