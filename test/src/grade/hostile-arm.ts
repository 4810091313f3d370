/**
 * Makes the fixture's hostile submissions real in a temp class: fills in the paths they
 * aim at (a secret outside the class, the reference solutions, the class itself) and puts
 * the link 17-symlink-to-solutions needs beside its file.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PATHS, tempDir } from "./support.js";

/** Text only the grader may read; it must show up in no row, report or log. */
export const SECRET = "LAB-SECRET-4b1d-never-print-me";
/** A line in the fixture's reference solution for 01-adder, which no learner's copy has. */
export const SOLUTION_MARK = "lab-fixture-reference-solution";

export interface Armed {
  secretFile: string;
  secretDir: string;
  solution: string;
}

export function armHostiles(classDir: string): Armed {
  const secretDir = realpathSync(tempDir("secret"));
  const secretFile = join(secretDir, "secret.json");
  writeFileSync(secretFile, `${JSON.stringify(SECRET)}\n`);
  const solutions = realpathSync(PATHS.solutions);
  const fill: Record<string, string> = {
    __LAB_SECRET_FILE__: secretFile,
    __LAB_SECRET_DIR__: secretDir,
    __LAB_SOLUTIONS_DIR__: solutions,
    __LAB_SOLUTION__: join(solutions, "01-adder.ts"),
    __LAB_CLASS__: realpathSync(classDir),
  };
  for (const learner of [
    "13-raw-import-outside",
    "14-reexports-solution",
    "15-reexports-classmate",
    "16-computed-dynamic-import",
    "20-import-meta-glob",
    "21-reads-new-url",
    "22-create-require",
  ]) {
    const file = join(classDir, learner, "01-adder.ts");
    if (!existsSync(file)) continue;
    writeFileSync(
      file,
      Object.entries(fill).reduce((text, [token, value]) => text.replaceAll(token, value), readFileSync(file, "utf8")),
    );
  }
  const linked = join(classDir, "17-symlink-to-solutions");
  if (existsSync(linked)) symlinkSync(solutions, join(linked, "solutions"));
  return { secretFile, secretDir, solution: join(solutions, "01-adder.ts") };
}

/** The module specifier a hostile file imports, as armed. */
export const importIn = (classDir: string, learner: string) => /from "([^"]+)"/.exec(readFileSync(join(classDir, learner, "01-adder.ts"), "utf8"))![1]!;

/** The command that runs a process as the first of a new PID namespace (with its own /proc), when the kernel allows one. */
export function pidNamespaceWrap(): string[] | null {
  const wrap = ["unshare", "--user", "--map-root-user", "--pid", "--fork", "--kill-child", "--mount-proc"];
  if (process.platform !== "linux") return null;
  return spawnSync(wrap[0]!, [...wrap.slice(1), "true"], { stdio: "ignore" }).status === 0 ? wrap : null;
}
