/**
 * `lab check --file` on a file outside the workspace (an instructor checking a submission)
 * runs it behind grading's walls, so a learner tool never reads the instructor's files.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { refusedImport } from "../../../checker/run/walls/import-wall.js";
import { refusedSignal } from "../../../checker/run/walls/signal-wall.js";
import { CHECK_NOTES, checkCommand } from "../../../src/commands/check.js";
import { captureIo } from "../../support/io.js";
import { tempDir } from "../../support/temp-dir.js";

const root = join(import.meta.dirname, "../../..");
const fixture = join(root, "test/fixtures/lab");
const paths = { root, exercises: join(fixture, "exercises"), solutions: join(fixture, "solutions") };
const solution = readFileSync(join(fixture, "solutions/01-adder.ts"), "utf8");
const SECRET = "LAB-CHECK-SECRET-91c2";

/** A project with a workspace, a secret file beside it, and a submission outside the workspace. */
function setup(submission: (secretFile: string) => string) {
  const cwd = tempDir("check-walls");
  writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws", timeoutSeconds: 10 };\n`);
  const secretFile = join(tempDir("check-secret"), "secret.txt");
  writeFileSync(secretFile, `${SECRET}\n`);
  const file = join(tempDir("submission"), "01-adder.ts");
  writeFileSync(file, submission(secretFile));
  return { cwd, file };
}

async function check(submission: (secretFile: string) => string) {
  const { cwd, file } = setup(submission);
  const io = captureIo(cwd);
  const code = await checkCommand("1", { file }, io, paths);
  return { code, out: io.out(), err: io.err(), file };
}

describe("lab check --file on a file outside the workspace", () => {
  test("an honest file passes, and stderr says it ran walled off", async () => {
    const run = await check(() => solution);
    expect(run.code).toBe(0);
    expect(run.out.trimEnd().split("\n").at(-1)).toBe("3 passed, 0 failed");
    expect(run.err).toContain(CHECK_NOTES.walled(run.file));
  });

  test("readFileSync of a file outside is denied and the secret is printed nowhere", async () => {
    const run = await check(
      (secret) => `import { readFileSync } from "node:fs";\n${solution}\nthrow new Error(readFileSync(${JSON.stringify(secret)}, "utf8"));\n`,
    );
    expect(run.code).toBe(1);
    expect(run.out).toContain("Access to this API has been restricted");
    expect(run.out + run.err).not.toContain(SECRET);
  });

  test("a ?raw import of a file outside is refused by the loader, the secret printed nowhere", async () => {
    const run = await check((secret) => `import text from ${JSON.stringify(`${secret}?raw`)};\n${solution}\nthrow new Error(text);\n`);
    expect(run.code).toBe(1);
    expect(run.out).toContain(refusedImport(`${readFileSync(run.file, "utf8").match(/from "([^"]+)"/)![1]}`, "query"));
    expect(run.out + run.err).not.toContain(SECRET);
  });

  test("the environment is not the checker's: the file sees no secret variable", async () => {
    process.env["LAB_CHECK_TEST_SECRET"] = SECRET;
    try {
      const run = await check(() => `${solution}\nthrow new Error("env: " + String(process.env["LAB_CHECK_TEST_SECRET"]));\n`);
      expect(run.out).toContain("env: undefined");
      expect(run.out + run.err).not.toContain(SECRET);
    } finally {
      delete process.env["LAB_CHECK_TEST_SECRET"];
    }
  });

  test("signalling lab check's process is refused", async () => {
    const run = await check(() => `${solution}\nprocess.kill(process.ppid, "SIGKILL");\n`);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(new RegExp(`lab refused to signal process \\d+: your file may signal only its own process\\.`));
    expect(refusedSignal(1)).toMatch(/process 1:/);
  });

  test("exercise 8's symlink tests run walled, on the links the lab lays down for them: the solution passes 11/11", async () => {
    const cwd = tempDir("check-walls-08");
    writeFileSync(join(cwd, "lab.config.ts"), `export default { workspace: "./ws", timeoutSeconds: 20 };\n`);
    const file = join(tempDir("submission"), "08-offloading.ts");
    writeFileSync(file, readFileSync(join(root, "solutions/08-offloading.ts")));
    const io = captureIo(cwd);
    const code = await checkCommand("8", { file }, io, { root, exercises: join(root, "exercises"), solutions: join(root, "solutions") });
    expect(io.err()).toContain(CHECK_NOTES.walled(file));
    expect(io.out()).toContain("PASS  a symlink planted inside the root that points outside is refused (no-realpath bug)");
    expect(io.out()).toContain("PASS  an Offloader whose root is reached through a symlink still reads its own artifacts (realpath-one-side bug)");
    expect([code, io.out().trimEnd().split("\n").at(-1)]).toEqual([0, "11 passed, 0 failed"]);
  }, 60_000);
});
