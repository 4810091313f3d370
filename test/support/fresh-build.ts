/**
 * Is dist/ as new as its sources? The suite runs the compiled engine in places (workers,
 * lab:test, lab:support, the CLI's processes) and the sources in others, so a source edited
 * after the last build would be tested half old, half new. As vitest's global setup, this
 * refuses the run with one sentence naming the first source whose compiled file is missing
 * or older.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

/** Every source the build compiles, relative to the lab's folder. */
export function compiledSources(root: string): string[] {
  const walk = (dir: string, keep: (file: string) => boolean) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
          .map((f) => `${dir}/${f}`)
          .filter(keep)
      : [];
  const code = (f: string) => /\.tsx?$/.test(f) && !/\.(test|d)\.tsx?$/.test(f);
  const exercises = existsSync(join(root, "exercises")) ? readdirSync(join(root, "exercises")).filter((f) => /^\d{2}-/.test(f)) : [];
  return [
    ...walk("src", code),
    ...walk("checker", code),
    ...exercises.flatMap((folder) => [...walk(`exercises/${folder}/support`, code), ...walk(`exercises/${folder}`, (f) => f.endsWith("/scenarios.ts"))]),
  ].sort();
}

export const staleMessage = (source: string, built: string) =>
  `The build is older than its sources: ${source} changed after ${built} was built; run npm run build (or keep npm run dev running) and test again.`;

/** The sentence refusing a stale build: the first source newer than its compiled file, or without one; null when dist/ is current. */
export function staleBuild(root: string): string | null {
  for (const source of compiledSources(root)) {
    const built = `dist/${source.replace(/\.tsx?$/, ".js")}`;
    const builtAt = existsSync(join(root, built)) ? statSync(join(root, built)).mtimeMs : -1;
    if (builtAt < statSync(join(root, source)).mtimeMs) return staleMessage(source, built);
  }
  return null;
}

/** Vitest's global setup. */
export default function refuseStaleBuild(): void {
  const stale = staleBuild(resolve(import.meta.dirname, "../.."));
  if (stale) throw new Error(stale);
}
