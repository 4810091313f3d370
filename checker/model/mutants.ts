/**
 * An exercise's mutants: its named bugs, each stored as the change it makes (mutants/<bug>.diff,
 * see mutant-diff.ts) and written out as a full file where a full file is needed: the runner,
 * `lab check --file`, the type check. A mutant that is a true rewrite stays a full file
 * (mutants/<bug>.ts) whose first line says why. A subfolder of mutants/ is a group of them
 * (blind/, say: mutants written from the lesson alone), loaded as "<group>/<bug>"; anything else in mutants/ is refused.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { applyMutantDiff, MutantDiffError, parseMutantDiff } from "./mutant-diff.js";

export interface Mutant {
  /** "split-results", or "blind/caches-writes" in a group. */
  name: string;
  /** The bug it is: a key of exercise.json's "bugs" (the file's name without its group). */
  bug: string;
  /** The committed file: mutants/<name>.diff, or mutants/<name>.ts for a rewrite. */
  source: string;
  /** The full file to run: written from the diff, or the rewrite itself. */
  file: string;
}

/** What a full-file mutant's first line starts with: it says why it is not a diff. */
export const REWRITE_MARK = "// A rewrite, not a diff:";

export const MUTANT_MESSAGES = {
  notMutant: (path: string) => `exercises/${path}: mutants/ holds only mutants (.diff, or .ts for a rewrite) and folders of them`,
  tooDeep: (path: string) => `exercises/${path}: a group of mutants is one folder deep; this folder is inside another`,
  both: (path: string) => `exercises/${path}: there is a .diff and a .ts of this mutant; keep one`,
  unknownBug: (path: string, bug: string) => `exercises/${path}: "${bug}" is not a key of "bugs" in exercise.json.`,
  noReason: (path: string) => `exercises/${path}: a full-file mutant starts with "${REWRITE_MARK} <why>"; store a smaller change as a .diff`,
  badBase: (base: string) => `its base ${base} is not the exercise's solution or a file in its folder`,
  noBase: (base: string) => `its base ${base} does not exist`,
} as const;

export class MutantError extends Error {
  override name = "MutantError";
}

interface Where {
  /** The exercise folder, …/exercises/NN-slug. */
  dir: string;
  exercisesDir: string;
  solutionsDir: string;
}

/** Where the build puts what it makes of an exercise folder: dist/exercises/NN-slug/ of the lab the folder is in. */
export const builtDir = (dir: string) => resolve(dirname(dir), "..", "dist", "exercises", basename(dir));

/** Where the full file of a diff mutant is written. */
export const builtMutantFile = (where: Pick<Where, "dir">, name: string) => join(builtDir(where.dir), "mutants", `${name}.ts`);

/** Every mutant file in mutants/ and its one-deep groups, refusing anything else (never skipping it). */
export function listMutants(where: Where, bugs: Record<string, string>): Mutant[] {
  const root = join(where.dir, "mutants");
  if (!existsSync(root)) return [];
  const folder = basename(where.dir);
  const found: Mutant[] = [];
  const visit = (dir: string, group: string | null) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = `${folder}/${relative(where.dir, join(dir, entry.name))}`;
      if (entry.isDirectory()) {
        if (group !== null) throw new MutantError(MUTANT_MESSAGES.tooDeep(path));
        visit(join(dir, entry.name), entry.name);
        continue;
      }
      const kind = /\.(diff|ts)$/.exec(entry.name)?.[1];
      if (!entry.isFile() || !kind) throw new MutantError(MUTANT_MESSAGES.notMutant(path));
      const bug = entry.name.slice(0, -(kind.length + 1));
      const name = group ? `${group}/${bug}` : bug;
      if (!(bug in bugs)) throw new MutantError(MUTANT_MESSAGES.unknownBug(path, bug));
      if (found.some((m) => m.name === name)) throw new MutantError(MUTANT_MESSAGES.both(path));
      const source = join(dir, entry.name);
      if (kind === "ts" && !readFileSync(source, "utf8").startsWith(REWRITE_MARK)) throw new MutantError(MUTANT_MESSAGES.noReason(path));
      found.push({ name, bug, source, file: kind === "ts" ? source : builtMutantFile(where, name) });
    }
  };
  visit(root, null);
  // Top-level mutants first, then each group's: the exercise's own bug list, then its variants.
  return [...found.filter((m) => !m.name.includes("/")), ...found.filter((m) => m.name.includes("/"))];
}

/** The base a diff names, as a path: the exercise's solution, or a file inside its own folder. */
function baseFile(where: Where, base: string, diffLabel: string): string {
  const folder = basename(where.dir);
  const file = base.startsWith("solutions/")
    ? join(where.solutionsDir, base.slice("solutions/".length))
    : base.startsWith(`exercises/${folder}/`)
      ? join(where.exercisesDir, base.slice("exercises/".length))
      : null;
  const isSolution = file === join(where.solutionsDir, `${folder}.ts`);
  if (!file || (!isSolution && !file.startsWith(`${where.dir}/`)) || file.includes("/../"))
    throw new MutantError(`${diffLabel}: ${MUTANT_MESSAGES.badBase(base)}`);
  if (!existsSync(file)) throw new MutantError(`${diffLabel}: ${MUTANT_MESSAGES.noBase(base)}`);
  return file;
}

/** Reads a diff mutant and the base it names. Errors name the diff's file and line. */
function readDiff(where: Where, mutant: Mutant) {
  const label = `exercises/${relative(where.exercisesDir, mutant.source)}`;
  try {
    const diff = parseMutantDiff(readFileSync(mutant.source, "utf8"), label);
    return { label, diff, base: baseFile(where, diff.base, `${label}:${diff.baseLine}`) };
  } catch (err) {
    throw err instanceof MutantDiffError ? new MutantError(err.message) : err;
  }
}

/** The mutant's full text: its diff applied to its base, or the rewrite as it is. */
export function mutantText(where: Where, mutant: Mutant): string {
  if (mutant.source === mutant.file) return readFileSync(mutant.file, "utf8");
  const { label, diff, base } = readDiff(where, mutant);
  try {
    const code = applyMutantDiff(readFileSync(base, "utf8"), diff, label);
    return `${code.replace(/\n$/, "")}\n// Mutant ${mutant.name}: ${label} applied to ${diff.base}. Edit the diff, not this file.\n`;
  } catch (err) {
    throw err instanceof MutantDiffError ? new MutantError(err.message) : err;
  }
}

const mtime = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : -1);

/**
 * Writes each diff mutant's full file, whole or not at all, unless it is already newer than its
 * diff and its base (so a lab that was built writes nothing). Returns the files written.
 */
export function writeMutants(where: Where, mutants: Mutant[], options: { always?: boolean } = {}): string[] {
  const written: string[] = [];
  for (const mutant of mutants) {
    if (mutant.source === mutant.file) continue;
    if (!options.always) {
      const built = mtime(mutant.file);
      if (built >= mtime(mutant.source) && built >= mtime(readDiff(where, mutant).base)) continue;
    }
    const text = mutantText(where, mutant);
    mkdirSync(dirname(mutant.file), { recursive: true });
    const temp = `${mutant.file}.${process.pid}.tmp`;
    writeFileSync(temp, text);
    renameSync(temp, mutant.file);
    written.push(mutant.file);
  }
  return written;
}
